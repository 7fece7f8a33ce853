import type { TerminalJobStatus } from "../../../core/contract/index.js";
import type { BlobContent, BlobStore } from "./blobs.js";
import { writeTransaction, type Db } from "./database.js";
import type { FinishGuard, JobErrorBody, RunReport } from "../../domain/job-rows.js";
import type { JobStore } from "./jobs.js";

/** A job's terminal state with everything that must commit with it, or not at all. */
export interface JobEnding {
  jobId: string;
  status: Exclude<TerminalJobStatus, "cancelled">;
  /** Who may write it (the attempt's lease and fence); see FinishGuard. */
  guard: FinishGuard;
  error?: JobErrorBody | undefined;
  result?: unknown;
  /** The terminal event's message. */
  message?: string | undefined;
  /** The output blobs of a success, created at `at` as revision 1. */
  outputs?: ReadonlyArray<{ id: string; modelId: string; content: BlobContent }>;
  /** When the outputs were made (their created_at and updated_at); default now. */
  at?: string;
  /** The attempt's last log lines and progress, written after the ending in the same transaction. */
  reports?: { owner: string; entries: readonly RunReport[] };
}

/** Refused by the guard: thrown inside the ending's transaction, it rolls back the output rows written before the check. */
export class EndingRefused extends Error {}

/**
 * Writes `ending` in one durable transaction: output blob rows, then the terminal state
 * (if the guard still allows it), then the reports. False, with nothing written, when
 * the guard refuses (the job ended, was cancelled, or another attempt holds it).
 */
export function endJob(db: Db, stores: { jobs: JobStore; blobs: BlobStore }, ending: JobEnding): boolean {
  const at = ending.at ?? new Date().toISOString();
  try {
    return writeTransaction(db, () => {
      for (const out of ending.outputs ?? []) stores.blobs.insert(out.id, out.modelId, 1, out.content, at);
      const outcome = { error: ending.error, result: ending.result, message: ending.message };
      if (!stores.jobs.finish(ending.jobId, ending.status, outcome, ending.guard)) throw new EndingRefused();
      if (ending.reports) stores.jobs.writeRunReports(ending.jobId, ending.reports.owner, ending.reports.entries);
      return true;
    });
  } catch (err) {
    if (err instanceof EndingRefused) return false;
    throw err;
  }
}
