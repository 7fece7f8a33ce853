import type {
  JobExecutionLogContainer,
  JobExecutionLogDetails,
  JobRecord,
  JobStatus,
  LogLevel,
  TerminalJobStatus,
} from "../../../core/contract/index.js";
import { prepared, relaxedWrite, tickWrite, writeTransaction, type Db } from "./database.js";
import { nowIso } from "../../domain/clock.js";
import { isPrimaryKeyClash } from "./sqlite.js";
import {
  DuplicateJobError,
  allows,
  jobFields,
  type ClaimCandidate,
  type FinishGuard,
  type JobErrorBody,
  type JobRow,
  type RunReport,
} from "../../domain/job-rows.js";
import type { JobRecords } from "../port.js";

const NOT_TERMINAL = "status IN ('queued', 'running')";
/** Queued, or running under an expired lease (or none: rows of a store before leases). */
const CLAIMABLE = "(status = 'queued' OR (status = 'running' AND (lease_expires_at IS NULL OR lease_expires_at < ?)))";

/**
 * Job rows, their status history (events) and their log lines. Every state change
 * is guarded by NOT_TERMINAL, so a finished job can never change again, and every
 * change a running attempt makes is guarded by its lease, so a process that lost
 * its lease cannot write over the process that took the job over.
 */
export class JobStore implements JobRecords {
  private readonly listeners = new Set<() => void>();

  constructor(private readonly db: Db) {}

  /**
   * Calls `listener` after each change of a job's status, phase or progress made through
   * this store, synchronously: inside the writing transaction when there is one, so a
   * listener that reads must defer (JobWaiters does).
   */
  onChange(listener: () => void): void {
    this.listeners.add(listener);
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }

  create(job: {
    id: string;
    modelId: string;
    jobType: string;
    request: unknown;
    digest: string;
    /** The process holding the job's keys in memory, or null for a job without keys. */
    keyHolder: string | null;
  }): JobRow {
    const now = nowIso();
    try {
      writeTransaction(this.db, () => {
        prepared(
          this.db,
          `INSERT INTO jobs (id, model_id, job_type, status, progress, phase, created_at, attempts, request, request_digest, had_keys, key_holder, revision)
             VALUES (?, ?, ?, 'queued', 0, 'queued', ?, 0, ?, ?, ?, ?, 1)`,
        ).run(
          job.id,
          job.modelId,
          job.jobType,
          now,
          JSON.stringify(job.request),
          job.digest,
          job.keyHolder ? 1 : 0,
          job.keyHolder,
        );
        this.event(job.id, "queued", "queued", 0, "job accepted", now);
      });
    } catch (err) {
      if (isPrimaryKeyClash(err)) throw new DuplicateJobError(job.id);
      throw err;
    }
    this.notify();
    return this.row(job.id)!;
  }

  row(id: string): JobRow | undefined {
    return prepared(this.db, "SELECT * FROM jobs WHERE id = ?").get(id) as JobRow | undefined;
  }

  /** A job of this model, or undefined (another model's job is as absent as a missing one). */
  get(modelId: string, id: string): JobRow | undefined {
    const row = this.row(id);
    return row && row.model_id === modelId ? row : undefined;
  }

  /**
   * Jobs some process may take now, oldest first: queued, under an expired lease, or
   * running in a process known to be dead (`deadOwners`: no need to wait for their leases).
   */
  claimable(now: number, limit: number, deadOwners: readonly string[] = []): ClaimCandidate[] {
    const dead =
      deadOwners.length > 0
        ? ` OR (status = 'running' AND lease_owner IN (${deadOwners.map(() => "?").join(", ")}))`
        : "";
    return prepared(
      this.db,
      `SELECT id, status, attempts, had_keys, key_holder, lease_owner FROM jobs WHERE ${CLAIMABLE}${dead}
         ORDER BY created_at, rowid LIMIT ?`,
    ).all(now, ...deadOwners, limit) as ClaimCandidate[];
  }

  /**
   * Takes a job for one attempt under a lease, atomically: of several processes
   * claiming the same job, exactly one gets the row back. `message` becomes the
   * `running` event, naming the process.
   */
  claim(
    id: string,
    lease: { owner: string; expiresAt: number },
    now: number,
    message: string,
    /** The job's lease holder when it is known to be dead: its lease need not have expired. */
    deadOwner: string | null = null,
  ): JobRow | undefined {
    const at = nowIso();
    // Not acknowledged to anyone: lost in an OS crash, the job is simply claimable again
    // (its `succeeded`, committed with fsync, would have made this claim durable too).
    return relaxedWrite(this.db, () => {
      const changed = prepared(
        this.db,
        `UPDATE jobs SET status = 'running', phase = 'reading', progress = 0, started_at = ?, attempts = attempts + 1,
             lease_owner = ?, lease_expires_at = ?, revision = revision + 1 WHERE id = ? AND (${CLAIMABLE} OR (status = 'running' AND lease_owner = ?))`,
      ).run(at, lease.owner, lease.expiresAt, id, now, deadOwner).changes;
      if (changed !== 1) return undefined;
      this.event(id, "running", "reading", 0, message, at);
      this.notify();
      return this.row(id);
    });
  }

  /**
   * Extends the leases of `ids`, the jobs this process still runs; the number renewed.
   * Only those: a job whose attempt was given up without an ending (its commit met a
   * locked database) must see its lease run out, so that it runs again.
   */
  renewLeases(owner: string, expiresAt: number, ids: readonly string[]): number {
    if (ids.length === 0) return 0;
    return tickWrite(
      this.db,
      () =>
        prepared(
          this.db,
          `UPDATE jobs SET lease_expires_at = ? WHERE lease_owner = ? AND status = 'running' AND id IN (${ids.map(() => "?").join(", ")})`,
        ).run(expiresAt, owner, ...ids).changes,
    );
  }

  /** Status and lease holder of the given jobs: how a process learns that a job it runs was cancelled or taken over. */
  leases(ids: readonly string[]): Array<{ id: string; status: JobStatus; lease_owner: string | null }> {
    if (ids.length === 0) return [];
    return prepared(
      this.db,
      `SELECT id, status, lease_owner FROM jobs WHERE id IN (${ids.map(() => "?").join(", ")})`,
    ).all(...ids) as Array<{ id: string; status: JobStatus; lease_owner: string | null }>;
  }

  /** Records progress of the attempt holding the lease; a new phase also becomes an event. */
  progress(id: string, owner: string, phase: string, progress: number): void {
    this.writeRunReports(id, owner, [{ kind: "progress", phase, progress }]);
  }

  /**
   * Writes a running attempt's log lines and progress reports in one transaction without
   * fsync (relaxedWrite; inside a caller's transaction, as part of it). Progress counts
   * only while `owner` holds the lease: a new phase becomes an event, and the row keeps
   * the batch's last report. Log lines are kept whoever holds the lease.
   */
  writeRunReports(id: string, owner: string, entries: readonly RunReport[]): void {
    if (entries.length === 0) return;
    relaxedWrite(this.db, () => {
      let held: boolean | undefined;
      let phase: string | null = null;
      let last: { phase: string; progress: number } | undefined;
      let before: { phase: string | null; progress: number } | undefined;
      for (const entry of entries) {
        if (entry.kind === "log") {
          prepared(
            this.db,
            "INSERT INTO job_logs (job_id, timestamp, level, message, hostname, replica_name, process_id) VALUES (?, ?, ?, ?, ?, ?, ?)",
          ).run(
            id,
            entry.at,
            entry.level,
            entry.message,
            entry.container.hostname,
            entry.container.replicaName,
            entry.container.processId,
          );
          continue;
        }
        if (held === undefined) {
          const row = this.row(id);
          held = row !== undefined && row.status === "running" && row.lease_owner === owner;
          if (row) before = { phase: row.phase, progress: row.progress };
          phase = row?.phase ?? null;
        }
        if (!held) continue;
        if (entry.phase !== phase) this.event(id, "running", entry.phase, entry.progress, null, nowIso());
        phase = entry.phase;
        last = entry;
      }
      if (last && before && (before.phase !== last.phase || before.progress !== last.progress)) {
        prepared(this.db, "UPDATE jobs SET phase = ?, progress = ?, revision = revision + 1 WHERE id = ?").run(
          last.phase,
          last.progress,
          id,
        );
        this.notify();
      }
    });
  }

  /**
   * Moves a job to a terminal state if `guard` still allows it; false otherwise (the
   * job already ended, was cancelled, or another process holds its lease). Callers
   * that write more in the same transaction (the output commit) wrap it in theirs.
   */
  finish(
    id: string,
    status: Exclude<TerminalJobStatus, "cancelled">,
    outcome: { error?: JobErrorBody; result?: unknown; message?: string },
    guard: FinishGuard,
  ): boolean {
    const now = nowIso();
    return writeTransaction(this.db, () => {
      const row = this.row(id);
      if (!row || !allows(row, guard)) return false;
      const progress = status === "succeeded" ? 1 : row.progress;
      const phase = status === "succeeded" ? "done" : row.phase;
      const changed = prepared(
        this.db,
        `UPDATE jobs SET status = ?, phase = ?, progress = ?, finished_at = ?, error = ?, result = ?,
             lease_owner = NULL, lease_expires_at = NULL, revision = revision + 1 WHERE id = ? AND ${NOT_TERMINAL}`,
      ).run(
        status,
        phase,
        progress,
        now,
        outcome.error ? JSON.stringify(outcome.error) : null,
        outcome.result === undefined ? null : JSON.stringify(outcome.result),
        id,
      ).changes;
      if (changed === 1) {
        this.event(id, status, phase, progress, outcome.message ?? outcome.error?.title ?? null, now);
        this.notify();
      }
      return changed === 1;
    });
  }

  /**
   * Cancels a queued or running job. Returns the row after the call and whether this
   * call cancelled it (false: it had already ended, perhaps as `cancelled`).
   */
  cancel(id: string, message: string): { row: JobRow; cancelled: boolean } | undefined {
    const now = nowIso();
    return writeTransaction(this.db, () => {
      const changed = prepared(
        this.db,
        `UPDATE jobs SET status = 'cancelled', finished_at = ?, lease_owner = NULL, lease_expires_at = NULL,
           revision = revision + 1 WHERE id = ? AND ${NOT_TERMINAL}`,
      ).run(now, id).changes;
      const row = this.row(id);
      if (!row) return undefined;
      if (changed === 1) {
        this.event(id, "cancelled", row.phase, row.progress, message, now);
        this.notify();
      }
      return { row, cancelled: changed === 1 };
    });
  }

  /** Puts a job this process runs back in the queue (its process is stopping); false if it no longer held it. */
  requeue(id: string, owner: string, message: string): boolean {
    const now = nowIso();
    return writeTransaction(this.db, () => {
      const changed = prepared(
        this.db,
        `UPDATE jobs SET status = 'queued', phase = 'queued', progress = 0, lease_owner = NULL, lease_expires_at = NULL,
           revision = revision + 1 WHERE id = ? AND status = 'running' AND lease_owner = ?`,
      ).run(id, owner).changes;
      if (changed === 1) {
        this.event(id, "queued", "queued", 0, message, now);
        this.notify();
      }
      return changed === 1;
    });
  }

  countQueued(): number {
    return (prepared(this.db, "SELECT COUNT(*) AS n FROM jobs WHERE status = 'queued'").get() as { n: number }).n;
  }

  /** Queued jobs whose keys only this process holds. */
  queuedWithKeysOf(owner: string): string[] {
    return (
      prepared(this.db, "SELECT id FROM jobs WHERE status = 'queued' AND key_holder = ?").all(owner) as Array<{
        id: string;
      }>
    ).map((r) => r.id);
  }

  /** One log line, committed without fsync (see relaxedWrite), or as part of the caller's transaction. */
  log(id: string, level: LogLevel, message: string, container: JobExecutionLogContainer): void {
    relaxedWrite(this.db, () =>
      prepared(
        this.db,
        "INSERT INTO job_logs (job_id, timestamp, level, message, hostname, replica_name, process_id) VALUES (?, ?, ?, ?, ?, ?, ?)",
      ).run(id, nowIso(), level, message, container.hostname, container.replicaName, container.processId),
    );
  }

  /** Status, revision and model of a job: the cheap read behind job get's `wait`. */
  revision(id: string): { status: JobStatus; revision: number } | undefined {
    return prepared(this.db, "SELECT status, revision FROM jobs WHERE id = ?").get(id) as
      { status: JobStatus; revision: number } | undefined;
  }

  record(row: JobRow, limit: number): JobRecord {
    const events = prepared(
      this.db,
      "SELECT timestamp, status, phase, progress, message FROM (SELECT * FROM job_events WHERE job_id = ? ORDER BY seq DESC LIMIT ?) ORDER BY seq",
    ).all(row.id, limit) as JobRecord["events"];
    return { ...jobFields(row), events };
  }

  logs(row: JobRow, limit: number): JobExecutionLogDetails {
    const messages = prepared(
      this.db,
      `SELECT timestamp, level, message, hostname, replica_name, process_id FROM
           (SELECT * FROM job_logs WHERE job_id = ? ORDER BY seq DESC LIMIT ?) ORDER BY seq`,
    ).all(row.id, limit) as Array<{
      timestamp: string;
      level: string;
      message: string;
      hostname: string;
      replica_name: string;
      process_id: number;
    }>;
    const total = (
      prepared(this.db, "SELECT COUNT(*) AS n FROM job_logs WHERE job_id = ?").get(row.id) as { n: number }
    ).n;
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
    prepared(
      this.db,
      "INSERT INTO job_events (job_id, timestamp, status, phase, progress, message) VALUES (?, ?, ?, ?, ?, ?)",
    ).run(id, at, status, phase, progress, message);
  }
}
