/**
 * How a job that met a storage fault it cannot wait out (a full disk, a data dir it may not
 * write) fails: with the fault's own cause and what ends it, never as an internal error.
 * Imports only the domain, so the worker thread (failure.ts) and the runner word it alike.
 */
import { fileFaultOf, type FileFault } from "../domain/storage-faults.js";
import type { JobErrorBody } from "../domain/job-rows.js";

const TITLES: Record<FileFault["kind"], string> = {
  full: "Storage full",
  read_only: "Storage not writable",
};

/** A fault of the store's database (its driver said full or read-only), which names no file. */
const DATABASE_FAULTS: Record<FileFault["kind"], Omit<FileFault, "kind">> = {
  full: {
    code: "storage_full",
    cause: "the store's database found no space left on its disk",
    remedy: "the operator has freed space",
  },
  read_only: {
    code: "storage_read_only",
    cause: "the store's database accepts no writes (read-only)",
    remedy: "the operator has made it writable again",
  },
};

function failure(fault: FileFault): JobErrorBody {
  return {
    title: TITLES[fault.kind],
    detail: `The job could not be completed: ${fault.cause} (${fault.code}), so none of its outputs was stored. Submit the job again once ${fault.remedy}.`,
  };
}

/** The failure for a blob-file fault in `err`, or undefined when `err` is none. */
export function fileFaultFailure(err: unknown): JobErrorBody | undefined {
  const fault = fileFaultOf(err);
  return fault && failure(fault);
}

/** The failure for a database that is full or read-only. */
export function databaseFaultFailure(kind: FileFault["kind"]): JobErrorBody {
  return failure({ kind, ...DATABASE_FAULTS[kind] });
}
