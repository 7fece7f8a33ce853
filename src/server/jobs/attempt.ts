/** One attempt of a job in the runner: what it runs with, and what it came to. */
import type { JobExecutionLogContainer, LogLevel } from "../../core/contract/index.js";
import type { JobErrorBody, JobRow } from "../domain/job-rows.js";
import type { JobKeys } from "./job-keys.js";
import type { RunReportBatch } from "./run-report-batch.js";
import type { StoredPreprocessingRequest } from "./submission.js";
import type { WorkerSlot } from "./worker-slot.js";

export type LogLine = (level: LogLevel, message: string) => void;

export interface Attempt {
  slot: WorkerSlot;
  row: JobRow;
  request: StoredPreprocessingRequest;
  keys: JobKeys | null;
  log: LogLine;
  /** Where `log`'s lines come from. */
  container: JobExecutionLogContainer;
  reports: RunReportBatch;
  signal: AbortSignal;
}

/**
 * What one attempt came to: committed outputs, a failure to record, stopped (the job
 * was cancelled or taken over: nothing to write), or abandoned (this process is stopping,
 * or the commit met a database kept locked: the job is left to its lease and runs again).
 */
/** How a run that produced no outputs ends: the terminal state, its error and the log line. */
export interface FailedEnding {
  status: "failed" | "timed_out";
  error: JobErrorBody;
  logMessage: string;
}

export type AttemptEnd =
  { kind: "committed" } | { kind: "stopped" } | { kind: "abandoned" } | ({ kind: "failed" } & FailedEnding);
