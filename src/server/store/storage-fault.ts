/**
 * Storage faults (a full disk, a read-only data dir, a database another process keeps
 * locked) as the caller's answer: they fail the request that met them, name the cause,
 * and never end the process. Each adapter reads its driver's codes (sqlite/storage-faults.ts,
 * postgres/errors.ts); this is the one place that says what the client is told.
 */
import { HttpProblem } from "../http/problems.js";
import { neverConnected, PgStorageFault } from "./postgres/errors.js";
import { fileFaultOf, type FileFault, type StorageFaultKind } from "../domain/storage-faults.js";
import { sqliteFaultOf } from "./sqlite/storage-faults.js";

/** What a client is told to wait before retrying a write that met a locked database. */
const BUSY_RETRY_SECONDS = 5;
/** What a client is told to wait before retrying a write that met a full disk: an operator must free space first. */
const FULL_RETRY_SECONDS = 60;

/** Whether `err` is a storage fault: of node:fs (the blob files), of SQLite or of PostgreSQL. */
export function storageFaultOf(err: unknown): StorageFaultKind | undefined {
  if (err instanceof PgStorageFault) return err.kind;
  return fileFaultOf(err)?.kind ?? sqliteFaultOf(err);
}

/** What a PostgreSQL store's fault tells the client; the fault's own message stays in the log. */
const PG_FAULT_TEXT: Record<PgStorageFault["kind"], string> = {
  busy: "The database kept the rows this request needs locked by another replica for longer than its lock timeout: nothing was stored.",
  unavailable:
    "The connection to the database broke (it is restarting, or the network dropped it) while this request was being handled: a change it made may or may not have been stored. Read it back before sending it again (a job sent again with the same job_id is not created twice).",
  full: "The database's disk is full: nothing was stored. Reads still work; retry once the operator has freed space.",
  read_only: "The database is read-only (a standby, or made read-only by its operator): nothing was stored.",
};

const NOT_CONNECTED_TEXT =
  "The database cannot be reached (it refused the connection, or is starting or restarting): nothing was stored.";

function pgFaultText(err: PgStorageFault): string {
  if (err.kind === "unavailable" && neverConnected(err.sqlState)) return NOT_CONNECTED_TEXT;
  return PG_FAULT_TEXT[err.kind];
}

/** 507 for a full disk, 503 for a read-only data dir or a locked or unreachable database; undefined for any other error. */
export function storageProblem(err: unknown): HttpProblem | undefined {
  if (err instanceof PgStorageFault) {
    const retry = err.retryAfterSeconds ?? (err.kind === "full" ? FULL_RETRY_SECONDS : undefined);
    const text = pgFaultText(err) + (retry !== undefined ? ` Retry after ${retry} s.` : "");
    return new HttpProblem(err.kind === "full" ? 507 : 503, text, {
      ...(retry !== undefined ? { headers: { "retry-after": String(retry) } } : {}),
      body: { code: err.code },
    });
  }
  const file = fileFaultOf(err);
  if (file) return fileProblem(file);
  const kind = sqliteFaultOf(err);
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

/** A blob file that could not be written: the request wrote nothing (its temp file goes with it). */
function fileProblem(fault: FileFault): HttpProblem {
  const cause = `${fault.cause.charAt(0).toUpperCase()}${fault.cause.slice(1)}`;
  if (fault.kind === "full")
    return new HttpProblem(
      507,
      `${cause}: nothing was stored. Reads still work; retry once ${fault.remedy}, in ${FULL_RETRY_SECONDS} s at the soonest.`,
      { headers: { "retry-after": String(FULL_RETRY_SECONDS) }, body: { code: "storage_full" } },
    );
  return new HttpProblem(503, `${cause}: nothing was stored. Reads still work; retry once ${fault.remedy}.`, {
    body: { code: "storage_read_only" },
  });
}

/** A fault that passes by itself (a lock released, a database back): the work is tried again, not failed. */
export function isTransientStorageFault(err: unknown): boolean {
  const kind = storageFaultOf(err);
  return kind === "busy" || kind === "unavailable";
}
