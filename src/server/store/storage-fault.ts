/**
 * Storage faults (a full disk, a read-only data dir, a database another process keeps
 * locked) as the caller's answer: they fail the request that met them, name the cause,
 * and never end the process. Each adapter reads its driver's codes (its `faultOf`, see
 * adapter.ts), worded by it where the data dir's words do not fit; this is the one place
 * that says what the client is told.
 */
import { HttpProblem } from "../http/problems.js";
import { fileFaultOf, type FileFault, type StorageFaultKind } from "../domain/storage-faults.js";
import type { StoreFault } from "./adapter.js";
import { STORE_ADAPTERS } from "./adapters.js";

/** What a client is told to wait before retrying a write that met a locked database. */
const BUSY_RETRY_SECONDS = 5;
/** What a client is told to wait before retrying a write that met a full disk: an operator must free space first. */
const FULL_RETRY_SECONDS = 60;

function adapterFaultOf(err: unknown): StoreFault | undefined {
  for (const adapter of STORE_ADAPTERS) {
    const fault = adapter.faultOf?.(err);
    if (fault) return fault;
  }
  return undefined;
}

/** Whether `err` is a storage fault: of a store adapter's driver, or of node:fs (the blob files). */
export function storageFaultOf(err: unknown): StorageFaultKind | undefined {
  return adapterFaultOf(err)?.kind ?? fileFaultOf(err)?.kind;
}

/** 507 for a full disk, 503 for a read-only data dir or a locked or unreachable database; undefined for any other error. */
export function storageProblem(err: unknown): HttpProblem | undefined {
  const fault = adapterFaultOf(err);
  if (fault?.text !== undefined) {
    const retry = fault.retryAfterSeconds ?? (fault.kind === "full" ? FULL_RETRY_SECONDS : undefined);
    const text = fault.text + (retry !== undefined ? ` Retry after ${retry} s.` : "");
    return new HttpProblem(fault.kind === "full" ? 507 : 503, text, {
      ...(retry !== undefined ? { headers: { "retry-after": String(retry) } } : {}),
      body: { code: `storage_${fault.kind}` },
    });
  }
  const file = fault ? undefined : fileFaultOf(err);
  if (file) return fileProblem(file);
  const kind = fault?.kind;
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
