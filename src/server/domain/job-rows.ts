/** How a job row is read: who may finish it, and its record without events. */
import type { JobExecutionLogContainer, JobRecord, JobStatus, LogLevel } from "../../core/contract/index.js";

export interface JobRow {
  id: string;
  model_id: string;
  job_type: string;
  status: JobStatus;
  progress: number;
  phase: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  attempts: number;
  error: string | null;
  request: string;
  request_digest: string;
  had_keys: number;
  result: string | null;
  /** The process running the job (status `running`), or null. */
  lease_owner: string | null;
  /** When the lease ends unless renewed, ms since the epoch. */
  lease_expires_at: number | null;
  /** For a job with keys: the process that holds them in memory. */
  key_holder: string | null;
  /** Grows with every change of status, phase or progress (job get's `wait`/`since`). */
  revision: number;
}

/** A log line or progress report of a running attempt, kept until the next batch is written. */
export type RunReport =
  | { kind: "log"; level: LogLevel; message: string; container: JobExecutionLogContainer; at: string }
  | { kind: "progress"; phase: string; progress: number };

export interface JobErrorBody {
  title: string;
  detail: string;
}

/** A job some process may run now: queued, or running under a lease that expired. */
export interface ClaimCandidate {
  id: string;
  status: "queued" | "running";
  attempts: number;
  had_keys: number;
  key_holder: string | null;
  lease_owner: string | null;
}

/**
 * Who may write a job's terminal state: the lease holder (and, with `attempt`, only
 * that attempt of it: the fence that refuses a holder whose job was taken over and
 * given back meanwhile), or anyone while no live lease exists (none, expired, or held
 * by `deadOwner`, a process known to be dead).
 */
export type FinishGuard = { leaseOwner: string; attempt?: number } | { unleasedAt: number; deadOwner?: string | null };

export function allows(row: JobRow, guard: FinishGuard): boolean {
  if ("leaseOwner" in guard)
    return (
      row.status === "running" &&
      row.lease_owner === guard.leaseOwner &&
      (guard.attempt === undefined || row.attempts === guard.attempt)
    );
  return (
    row.status === "queued" ||
    (row.status === "running" &&
      (row.lease_expires_at === null ||
        row.lease_expires_at < guard.unleasedAt ||
        (row.lease_owner !== null && row.lease_owner === guard.deadOwner)))
  );
}

/** A job's record without its `events`: what job get adds them to and job list returns. */
export function jobFields(row: JobRow): JobRecord {
  return {
    id: row.id,
    model_id: row.model_id,
    job_type: row.job_type,
    status: row.status,
    progress: row.progress,
    phase: row.phase,
    created_at: row.created_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
    attempts: row.attempts,
    error: row.error ? (JSON.parse(row.error) as JobRecord["error"]) : null,
    request: JSON.parse(row.request) as unknown,
    revision: row.revision,
  };
}

/** A job with this id exists already (two sends of one job_id at once: the other was first). */
export class DuplicateJobError extends Error {
  override readonly name = "DuplicateJobError";
  constructor(readonly jobId: string) {
    super(`job ${jobId} exists already`);
  }
}

/** Runs a job gets before it fails for good (a crashed or stalled attempt counts). */
export const MAX_ATTEMPTS = 3;
