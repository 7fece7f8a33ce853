import type { TerminalJobStatus } from "../../core/contract/index.js";
import type { BlobContent } from "./blobs.js";
import type { FinishGuard, JobErrorBody, RunReport } from "./job-rows.js";

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
