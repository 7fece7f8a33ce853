import type {
  JobExecutionLogContainer,
  JobExecutionLogDetails,
  JobRecord,
  JobStatus,
  LogLevel,
  TerminalJobStatus,
} from "../../contract/index.js";
import { nowIso, type Db } from "./database.js";

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
}

export interface JobErrorBody {
  title: string;
  detail: string;
}

export const MAX_ATTEMPTS = 3;

const NOT_TERMINAL = "status IN ('queued', 'running')";

/**
 * Job rows, their status history (events) and their log lines. Every state change
 * is guarded by NOT_TERMINAL, so a finished job can never change again.
 */
export class JobStore {
  constructor(private readonly db: Db) {}

  create(job: {
    id: string;
    modelId: string;
    jobType: string;
    request: unknown;
    digest: string;
    hadKeys: boolean;
  }): JobRow {
    const now = nowIso();
    this.db.transaction(() => {
      this.db
        .prepare(
          `INSERT INTO jobs (id, model_id, job_type, status, progress, phase, created_at, attempts, request, request_digest, had_keys)
           VALUES (?, ?, ?, 'queued', 0, 'queued', ?, 0, ?, ?, ?)`,
        )
        .run(job.id, job.modelId, job.jobType, now, JSON.stringify(job.request), job.digest, job.hadKeys ? 1 : 0);
      this.event(job.id, "queued", "queued", 0, "job accepted", now);
    })();
    return this.row(job.id)!;
  }

  row(id: string): JobRow | undefined {
    return this.db.prepare("SELECT * FROM jobs WHERE id = ?").get(id) as JobRow | undefined;
  }

  /** A job of this model, or undefined (another model's job is as absent as a missing one). */
  get(modelId: string, id: string): JobRow | undefined {
    const row = this.row(id);
    return row && row.model_id === modelId ? row : undefined;
  }

  queuedIds(): string[] {
    return (
      this.db.prepare("SELECT id FROM jobs WHERE status = 'queued' ORDER BY created_at, rowid").all() as Array<{
        id: string;
      }>
    ).map((r) => r.id);
  }

  /** Claims a queued job for a run; false if it is no longer queued. */
  start(id: string): boolean {
    const now = nowIso();
    return this.db.transaction(() => {
      const changed = this.db
        .prepare(
          "UPDATE jobs SET status = 'running', phase = 'reading', progress = 0, started_at = ?, attempts = attempts + 1 WHERE id = ? AND status = 'queued'",
        )
        .run(now, id).changes;
      if (changed === 1) this.event(id, "running", "reading", 0, null, now);
      return changed === 1;
    })();
  }

  /** Records progress; a new phase also becomes an event. */
  progress(id: string, phase: string, progress: number): void {
    const row = this.row(id);
    if (!row || row.status !== "running") return;
    this.db
      .prepare("UPDATE jobs SET phase = ?, progress = ? WHERE id = ? AND status = 'running'")
      .run(phase, progress, id);
    if (row.phase !== phase) this.event(id, "running", phase, progress, null, nowIso());
  }

  /** Moves a non-terminal job to a terminal state; false if it already was terminal. */
  finish(
    id: string,
    status: TerminalJobStatus,
    outcome: { error?: JobErrorBody; result?: unknown; message?: string },
  ): boolean {
    const now = nowIso();
    return this.db.transaction(() => {
      const row = this.row(id);
      if (!row) return false;
      const progress = status === "succeeded" ? 1 : row.progress;
      const phase = status === "succeeded" ? "done" : row.phase;
      const changed = this.db
        .prepare(
          `UPDATE jobs SET status = ?, phase = ?, progress = ?, finished_at = ?, error = ?, result = ? WHERE id = ? AND ${NOT_TERMINAL}`,
        )
        .run(
          status,
          phase,
          progress,
          now,
          outcome.error ? JSON.stringify(outcome.error) : null,
          outcome.result === undefined ? null : JSON.stringify(outcome.result),
          id,
        ).changes;
      if (changed === 1) this.event(id, status, phase, progress, outcome.message ?? outcome.error?.title ?? null, now);
      return changed === 1;
    })();
  }

  /** Puts a running job back in the queue (restart recovery). */
  requeue(id: string, message: string): void {
    const now = nowIso();
    this.db.transaction(() => {
      const changed = this.db
        .prepare(
          "UPDATE jobs SET status = 'queued', phase = 'queued', progress = 0 WHERE id = ? AND status = 'running'",
        )
        .run(id).changes;
      if (changed === 1) this.event(id, "queued", "queued", 0, message, now);
    })();
  }

  runningIds(): Array<{ id: string; attempts: number; had_keys: number }> {
    return this.db.prepare("SELECT id, attempts, had_keys FROM jobs WHERE status = 'running'").all() as Array<{
      id: string;
      attempts: number;
      had_keys: number;
    }>;
  }

  log(id: string, level: LogLevel, message: string, container: JobExecutionLogContainer): void {
    this.db
      .prepare(
        "INSERT INTO job_logs (job_id, timestamp, level, message, hostname, replica_name, process_id) VALUES (?, ?, ?, ?, ?, ?, ?)",
      )
      .run(id, nowIso(), level, message, container.hostname, container.replicaName, container.processId);
  }

  record(row: JobRow, limit: number): JobRecord {
    const events = this.db
      .prepare(
        "SELECT timestamp, status, phase, progress, message FROM (SELECT * FROM job_events WHERE job_id = ? ORDER BY seq DESC LIMIT ?) ORDER BY seq",
      )
      .all(row.id, limit) as JobRecord["events"];
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
      events,
    };
  }

  logs(row: JobRow, limit: number): JobExecutionLogDetails {
    const messages = this.db
      .prepare(
        `SELECT timestamp, level, message, hostname, replica_name, process_id FROM
           (SELECT * FROM job_logs WHERE job_id = ? ORDER BY seq DESC LIMIT ?) ORDER BY seq`,
      )
      .all(row.id, limit) as Array<{
      timestamp: string;
      level: string;
      message: string;
      hostname: string;
      replica_name: string;
      process_id: number;
    }>;
    const total = (this.db.prepare("SELECT COUNT(*) AS n FROM job_logs WHERE job_id = ?").get(row.id) as { n: number })
      .n;
    return {
      job_id: row.id,
      status: row.status,
      messages: messages.map((m) => ({
        timestamp: m.timestamp,
        level: m.level,
        message: m.message,
        container: { hostname: m.hostname, replicaName: m.replica_name, processId: m.process_id },
      })),
      truncated: total > messages.length,
    };
  }

  private event(
    id: string,
    status: string,
    phase: string | null,
    progress: number,
    message: string | null,
    at: string,
  ): void {
    this.db
      .prepare("INSERT INTO job_events (job_id, timestamp, status, phase, progress, message) VALUES (?, ?, ?, ?, ?, ?)")
      .run(id, at, status, phase, progress, message);
  }
}
