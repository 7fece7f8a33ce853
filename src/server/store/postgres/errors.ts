/**
 * PostgreSQL's failures as the store's: what a request that met one is answered. The kinds
 * are the store's storage faults (src/server/domain/storage-faults.ts), so the service
 * maps both the same way, plus `unavailable` for a database that cannot be reached at all,
 * which a file on a local disk never is.
 */
import type { StorageFaultKind } from "../../domain/storage-faults.js";

/**
 * `busy`: a lock stayed taken past lock_timeout, or a transaction kept losing to others
 * (serialization failure, deadlock) after its retries: another replica holds the rows, so
 * it is a retry. `unavailable`: the server refused, dropped or is shutting down the
 * connection: a retry once it is back. `full` and `read_only` as for a data dir.
 */
export type PgFaultKind = StorageFaultKind;

/** What a client is told to wait before retrying (the SQLite store's storage_busy says 5 s too). */
export const PG_RETRY_SECONDS = 5;

/**
 * A storage fault of the PostgreSQL store. Its message never holds the connection URL or
 * password: it is built from the error's code and a redacted message, and the driver's
 * error is not kept as `cause` (it may quote connection parameters).
 */
export class PgStorageFault extends Error {
  override readonly name = "PgStorageFault";
  /** The service's problem code, as the SQLite store's faults are answered: storage_busy, storage_unavailable, ... */
  readonly code: string;
  readonly retryAfterSeconds: number | undefined;
  /** Set on a broken connection's fault: ends the write it may have carried (see SettlableFault). */
  settleWrite?: () => Promise<boolean>;

  constructor(
    readonly kind: PgFaultKind,
    message: string,
    /** The SQLSTATE or Node error code that was met, for logs. */
    readonly sqlState: string | undefined,
  ) {
    super(message);
    this.code = `storage_${kind}`;
    this.retryAfterSeconds = kind === "busy" || kind === "unavailable" ? PG_RETRY_SECONDS : undefined;
  }
}

/** SQLSTATEs worth running the whole transaction again for: it lost a race, nothing is wrong. */
export function isRetryableConflict(err: unknown): boolean {
  const code = err instanceof PgStorageFault ? err.sqlState : codeOf(err);
  return code === "40001" || code === "40P01";
}

const NODE_CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
  "EPIPE",
]);

/**
 * Codes of a connection that was never made (refused, unknown host, the server starting,
 * too many connections): the request reached no database and stored nothing, where a
 * dropped connection may have been carrying a write.
 */
const NEVER_CONNECTED = new Set(["ECONNREFUSED", "ENOTFOUND", "EHOSTUNREACH", "57P03", "53300", "08001", "08004"]);

/** Whether an `unavailable` fault's code says no connection was ever made (see NEVER_CONNECTED). */
export function neverConnected(code: string | undefined): boolean {
  return code !== undefined && NEVER_CONNECTED.has(code);
}

/** The fault `err` is, or undefined for an error that is the caller's (a constraint, a bad query). */
export function faultKindOf(err: unknown): PgFaultKind | undefined {
  const code = codeOf(err);
  if (code === undefined) {
    const message = err instanceof Error ? err.message : "";
    // The driver's own words when the socket goes away under it.
    if (/Connection terminated|connection timeout|Client has encountered a connection error/i.test(message))
      return "unavailable";
    return undefined;
  }
  if (NODE_CONNECTION_CODES.has(code)) return "unavailable";
  // 08: connection exception; 57P01-57P03: admin or crash shutdown, cannot connect now; 53300: too many connections.
  if (code.startsWith("08") || code === "57P01" || code === "57P02" || code === "57P03" || code === "53300")
    return "unavailable";
  if (code === "40001" || code === "40P01" || code === "55P03") return "busy";
  if (code === "53100") return "full";
  if (code === "25006") return "read_only";
  return undefined;
}

function codeOf(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** `text` with every secret replaced: what may reach a message. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length === 0) continue;
    out = out.split(secret).join("***");
    const encoded = encodeURIComponent(secret);
    if (encoded !== secret) out = out.split(encoded).join("***");
  }
  return out;
}

/**
 * `err` as the store throws it: a PgStorageFault for a fault (redacted, without the
 * driver's error), the error itself otherwise (constraint violations and the like name
 * tables and values, never connection parameters).
 */
export function storeError(err: unknown, secrets: readonly string[]): unknown {
  if (err instanceof PgStorageFault) return err;
  const kind = faultKindOf(err);
  if (kind === undefined) {
    // No driver message seen here quotes the password, but one that did would go out redacted.
    if (err instanceof Error) {
      err.message = redact(err.message, secrets);
      if (err.stack) err.stack = redact(err.stack, secrets);
    }
    return err;
  }
  const code = codeOf(err);
  const said = redact(err instanceof Error ? err.message : String(err), secrets);
  const what =
    kind === "unavailable"
      ? "the PostgreSQL server cannot be reached or is shutting down"
      : kind === "busy"
        ? "the PostgreSQL rows stayed locked by another replica, or the transaction kept conflicting with others"
        : kind === "full"
          ? "the PostgreSQL server's disk is full"
          : "the PostgreSQL server accepts no writes (read-only)";
  const stored =
    kind === "unavailable" && !neverConnected(code)
      ? "a write under way may or may not have been stored"
      : "nothing was stored";
  return new PgStorageFault(kind, `${what}: ${stored} (${code ?? "no code"}: ${said})`, code);
}
