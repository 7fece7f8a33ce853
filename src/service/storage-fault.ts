/**
 * Storage faults (a full disk, a read-only data dir, a database another process keeps
 * locked) as the caller's answer: they fail the request that met them, name the cause,
 * and never end the process. Both SQLite drivers and node:fs report them differently;
 * this is the one place that knows how.
 */
import { HttpProblem } from "./problems.js";
import { PgStorageFault } from "./store/pg/errors.js";
import { isBusy } from "./store/process-lock.js";

/**
 * `busy`: the database's write lock stayed taken past busy_timeout. Another service
 * process holds it, frozen (SIGSTOP, Ctrl-Z) or stalled in the middle of a write: it
 * passes once that process resumes or dies, so it is a retry, not a failure.
 * `unavailable`: a database server that refused or dropped the connection (PostgreSQL
 * restarting): a retry too.
 */
export type StorageFaultKind = "full" | "read_only" | "busy" | "unavailable";

/** What a client is told to wait before retrying a write that met a locked database. */
const BUSY_RETRY_SECONDS = 5;
/** What a client is told to wait before retrying a write that met a full disk: an operator must free space first. */
const FULL_RETRY_SECONDS = 60;

const SQLITE_READONLY = 8;
const SQLITE_FULL = 13;

/** Whether `err` is a full disk or a read-only data dir, from node:fs, better-sqlite3 or node:sqlite. */
export function storageFaultOf(err: unknown): StorageFaultKind | undefined {
  if (err instanceof PgStorageFault) return err.kind;
  const e = err as { code?: unknown; errcode?: unknown; message?: unknown } | null;
  const code = typeof e?.code === "string" ? e.code : "";
  if (code === "ENOSPC" || code === "EDQUOT" || code === "SQLITE_FULL") return "full";
  if (code === "EROFS" || code.startsWith("SQLITE_READONLY")) return "read_only";
  if (typeof e?.errcode === "number") {
    if ((e.errcode & 0xff) === SQLITE_FULL) return "full";
    if ((e.errcode & 0xff) === SQLITE_READONLY) return "read_only";
  }
  const message = typeof e?.message === "string" ? e.message : "";
  if (/database or disk is full|no space left on device/i.test(message)) return "full";
  if (/attempt to write a readonly database|read-only file system/i.test(message)) return "read_only";
  if (isBusy(err)) return "busy";
  return undefined;
}

/** What a PostgreSQL store's fault tells the client; the fault's own message stays in the log. */
const PG_FAULT_TEXT: Record<PgStorageFault["kind"], string> = {
  busy: "The database kept the rows this request needs locked by another replica for longer than its lock timeout: nothing was stored.",
  unavailable:
    "The database cannot be reached (it refused or dropped the connection, or is restarting): nothing was stored.",
  full: "The database's disk is full: nothing was stored. Reads still work; retry once the operator has freed space.",
  read_only: "The database is read-only (a standby, or made read-only by its operator): nothing was stored.",
};

/** 507 for a full disk, 503 for a read-only data dir or a locked or unreachable database; undefined for any other error. */
export function storageProblem(err: unknown): HttpProblem | undefined {
  if (err instanceof PgStorageFault) {
    const retry = err.retryAfterSeconds ?? (err.kind === "full" ? FULL_RETRY_SECONDS : undefined);
    const text = PG_FAULT_TEXT[err.kind] + (retry !== undefined ? ` Retry after ${retry} s.` : "");
    return new HttpProblem(err.kind === "full" ? 507 : 503, text, {
      ...(retry !== undefined ? { headers: { "retry-after": String(retry) } } : {}),
      body: { code: err.code },
    });
  }
  const kind = storageFaultOf(err);
  if (kind === "full")
    return new HttpProblem(
      507,
      `No space left on the data dir's disk: nothing was stored. Reads still work; retry once the operator has freed space (mdps admin prune removes old blobs and jobs), in ${FULL_RETRY_SECONDS} s at the soonest.`,
      { headers: { "retry-after": String(FULL_RETRY_SECONDS) }, body: { code: "storage_full" } },
    );
  if (kind === "read_only")
    return new HttpProblem(
      503,
      "The data dir is read-only (its file system or files cannot be written): nothing was stored. Reads still work; retry once the operator has made it writable again.",
      { body: { code: "storage_read_only" } },
    );
  if (kind === "busy")
    return new HttpProblem(
      503,
      `The data dir's database stayed locked by another service process for longer than its busy timeout (a process frozen, e.g. by Ctrl-Z, or stalled in the middle of a write): nothing was stored. Reads still work; retry after ${BUSY_RETRY_SECONDS} s, or resume (fg) or stop the frozen process.`,
      { headers: { "retry-after": String(BUSY_RETRY_SECONDS) }, body: { code: "storage_busy" } },
    );
  return undefined;
}

/** A fault that passes by itself (a lock released, a database back): the work is tried again, not failed. */
export function isTransientStorageFault(err: unknown): boolean {
  const kind = storageFaultOf(err);
  return kind === "busy" || kind === "unavailable";
}
