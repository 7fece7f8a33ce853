/**
 * What a store adapter tells the service about itself, so that the service finds it by
 * its folder alone (see ./adapters.ts): the `--store` values it takes, how it opens, how
 * it is shown without secrets, which errors are its storage faults. Each adapter folder
 * has an `adapter.ts` exporting one `storeAdapter`; nothing outside the folder names it.
 */
import type { StorageFaultKind } from "../domain/storage-faults.js";
import type { Stores } from "./port.js";

/**
 * The store chosen once, when the options are resolved: its adapter's `kind` and the
 * settings that adapter needs to open it (a URL, a driver). Only that adapter reads them.
 */
export interface StoreChoice {
  readonly kind: string;
  readonly [setting: string]: unknown;
}

/** The service options an adapter may read besides `--store` (each named for its adapter). */
export interface AdapterSettings {
  /** The SQLite driver (`node-sqlite` or `better-sqlite3`); default MDPS_SQLITE_DRIVER, else the first that loads. */
  sqliteDriver?: string | undefined;
}

/** A storage fault an adapter's driver raised (see ../domain/storage-faults.ts). */
export interface StoreFault {
  kind: StorageFaultKind;
  /**
   * What the client is told, where the data dir's wording (store/storage-fault.ts) does not
   * fit, as for a database server; the fault's own message stays in the log.
   */
  text?: string;
  retryAfterSeconds?: number | undefined;
}

export interface StoreAdapter<C extends StoreChoice = StoreChoice> {
  /** Its choice's kind, also the word `--store` takes for it (any case). */
  readonly kind: string;
  /** What `--store` takes for it, as the error listing the accepted forms says it. */
  readonly forms: readonly string[];
  /** True for the one adapter used when no store is named: the data dir's own. */
  readonly dataDirDefault?: boolean;
  /** Whether the (trimmed, non-empty) `--store` value names this adapter's store besides its kind. */
  recognises?(value: string): boolean;
  /**
   * The choice for `value` (undefined when the adapter is the default or named by its kind);
   * throws a RangeError that says what to write instead, never repeating a password.
   */
  choose(request: { value: string | undefined; settings: AdapterSettings }): C;
  /** The store as logs, health and errors may show it: never a secret. */
  describe(choice: C): string;
  /** Fields the "store opened" log line adds (a driver's name). */
  logFields?(choice: C): Record<string, unknown>;
  /** The storage fault `err` is, if this adapter's driver raised it; undefined for any other error, another adapter's too. */
  faultOf?(err: unknown): StoreFault | undefined;
  /** Opens (and migrates) the store; loads the driver here, so only a chosen store's driver loads. */
  open(options: { choice: C; dataDir: string; region: string }): Promise<Stores>;
}

/**
 * `adapter` as the registry holds it, its own choice type checked where it is written.
 * The registry hands an adapter only choices its own `choose` made (matched by kind), so
 * the wider type it is held as (methods are bivariant) is safe.
 */
export function defineStoreAdapter<C extends StoreChoice>(adapter: StoreAdapter<C>): StoreAdapter {
  return adapter;
}
