/**
 * The PostgreSQL adapter as the service finds it (../adapters.ts): a postgres:// URL names
 * a database several replicas share. `pg` loads only when it is opened.
 */
import { defineStoreAdapter, type StoreChoice } from "../adapter.js";
import type { StorageFaultKind } from "../../domain/storage-faults.js";
import { redactedUrl } from "../store-url.js";
import { neverConnected, PgStorageFault } from "./errors.js";

interface PostgresChoice extends StoreChoice {
  readonly kind: "postgres";
  readonly url: string;
}

/** What a PostgreSQL store's fault tells the client. */
const FAULT_TEXT: Record<StorageFaultKind, string> = {
  busy: "The database kept the rows this request needs locked by another replica for longer than its lock timeout: nothing was stored.",
  unavailable:
    "The connection to the database broke (it is restarting, or the network dropped it) while this request was being handled: a change it made may or may not have been stored. Read it back before sending it again (a job sent again with the same job_id is not created twice).",
  full: "The database's disk is full: nothing was stored. Reads still work; retry once the operator has freed space.",
  read_only: "The database is read-only (a standby, or made read-only by its operator): nothing was stored.",
};

/** A connection never made carried no write. */
const NOT_CONNECTED_TEXT =
  "The database cannot be reached (it refused the connection, or is starting or restarting): nothing was stored.";

function faultText(err: PgStorageFault): string {
  if (err.kind === "unavailable" && neverConnected(err.sqlState)) return NOT_CONNECTED_TEXT;
  return FAULT_TEXT[err.kind];
}

const POSTGRES_URL = /^postgres(?:ql)?:\/\//i;
const EXAMPLE = "postgres://user:password@host:5432/database";

export const storeAdapter = defineStoreAdapter<PostgresChoice>({
  kind: "postgres",
  forms: [`a postgres:// URL (${EXAMPLE})`],
  recognises: (value) => POSTGRES_URL.test(value),
  choose({ value }) {
    if (value === undefined) throw new RangeError(`the PostgreSQL store is named by its URL: write ${EXAMPLE}`);
    try {
      new URL(value);
    } catch {
      throw new RangeError(`the store ${redactedUrl(value)} is not a valid URL: write ${EXAMPLE}`);
    }
    return { kind: "postgres", url: value };
  },
  describe: (choice) => redactedUrl(choice.url),
  faultOf: (err) =>
    err instanceof PgStorageFault
      ? { kind: err.kind, text: faultText(err), retryAfterSeconds: err.retryAfterSeconds }
      : undefined,
  async open({ choice, region }) {
    const { openPgPort } = await import("./port.js");
    return openPgPort({ url: choice.url, region });
  },
});
