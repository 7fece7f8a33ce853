import { isTransientStorageFault, storageFaultOf } from "../store/storage-fault.js";
import type { JobErrorBody } from "../domain/job-rows.js";
import type { AttemptEnd, FailedEnding, LogLine } from "./attempt.js";
import { databaseFaultFailure, fileFaultFailure } from "./storage-failure.js";
import type { RunOutcome } from "./worker-slot.js";

export function failedWith(error: JobErrorBody): FailedEnding {
  return { status: "failed", error, logMessage: `${error.title}: ${error.detail}` };
}

export const INTERNAL_ERROR: JobErrorBody = {
  title: "Internal error",
  detail: "The service hit an unexpected error while running the job. Submit it again; report it if it repeats.",
};

export function interruptedTooOften(attempts: number): JobErrorBody {
  return {
    title: "Interrupted too often",
    detail: `The service process running the job stopped (or was killed) during each of its ${attempts} attempts, so the job was given up. Submit it again; if it repeats, the job may be too large for the machine.`,
  };
}

export const COMMIT_FAILED: JobErrorBody = {
  title: "Internal error",
  detail: "The job's outputs could not be stored. Retry; report it if it persists.",
};

/** A full or read-only disk or database says so, with its cause; any other failure is internal. */
export function commitFailed(err: unknown): JobErrorBody {
  const file = fileFaultFailure(err);
  if (file) return file;
  const fault = storageFaultOf(err);
  if (fault === "full" || fault === "read_only") return databaseFaultFailure(fault);
  return COMMIT_FAILED;
}

/**
 * How an attempt whose output commit threw ends. A database that another service
 * process kept locked past the busy timeout (one frozen in the middle of a write) is
 * no fault of the job: the attempt ends without a terminal state, its lease runs out
 * and the job runs again (in this process when it holds the job's keys). A full or
 * read-only disk fails the job saying so; anything else is internal.
 */
export function commitEnding(err: unknown, log: LogLine): AttemptEnd {
  if (isTransientStorageFault(err)) {
    const why =
      storageFaultOf(err) === "busy"
        ? "the database stayed locked by another service process past its busy timeout"
        : "the database could not be reached";
    log("warning", `the outputs could not be committed: ${why}; the job runs again once this attempt's lease runs out`);
    return { kind: "abandoned" };
  }
  return { kind: "failed", ...failedWith(commitFailed(err)) };
}

export function inputDamaged(blobId: string, reason: string): JobErrorBody {
  return {
    title: "Input blob damaged",
    detail: `The stored bytes of the input blob ${blobId} are damaged (${reason}), so the job did not use them (blob_damaged). Upload the dataset again and submit a new job.`,
  };
}

export function outputsTooLarge(bytes: number, limit: number): JobErrorBody {
  return {
    title: "Outputs too large",
    detail: `The job's outputs hold ${bytes} bytes together, more than this service's limit of ${limit} bytes a job (--max-blob-bytes); none was stored. Ask for fewer outputs or send less data.`,
  };
}

export function inputGone(blobId: string): JobErrorBody {
  return {
    title: "Input blob not found",
    detail: `The input blob ${blobId} was deleted before the job ran. Upload it again and submit a new job.`,
  };
}

/** The ending of a worker run that did not finish with outputs. */
export function endingOf(
  outcome: Exclude<RunOutcome, { kind: "done" | "stopped" }>,
  timeoutSeconds: number,
): FailedEnding {
  switch (outcome.kind) {
    case "failed":
      return { status: "failed", error: outcome.error, logMessage: outcome.logMessage };
    case "crash":
      return failedWith({
        title: "Worker crashed",
        detail: `The job's worker thread stopped unexpectedly (${outcome.message}). Submit the job again; report it if it repeats.`,
      });
    case "timeout": {
      const error = {
        title: "Timed out",
        detail: `The job ran longer than its request_timeout_seconds (${timeoutSeconds} s) and was stopped. Raise request_timeout_seconds (at most 86400) or send less data.`,
      };
      return { status: "timed_out", error, logMessage: error.detail };
    }
  }
}
