import type {
  JobExecutionLogContainer,
  JobExecutionLogDetails,
  JobRecord,
  JobStatus,
  LogLevel,
  TerminalJobStatus,
} from "../../../core/contract/index.js";
import { nowIso } from "../../domain/clock.js";
import {
  allows,
  DuplicateJobError,
  type ClaimCandidate,
  type FinishGuard,
  type JobErrorBody,
  type JobRow,
  type RunReport,
} from "../../domain/job-rows.js";
import { MAX_ATTEMPTS } from "../../domain/job-rows.js";
import type { JobChange } from "../port.js";
import { DB_NOW_MS, msFromNow, type PgDb, type SqlParam } from "./connection.js";
import { insertEvent, insertLogs, jobLogs, jobRecord, writeRunReports } from "./job-reports.js";

/** Every column of a job row, as SQLite's `SELECT *` gives them (not the listing's `seq`). */
export const JOB_COLUMNS =
  "id, model_id, job_type, status, progress, phase, created_at, started_at, finished_at, attempts, error, request, request_digest, had_keys, result, lease_owner, lease_expires_at, key_holder, revision";

const NOT_TERMINAL = "status IN ('queued', 'running')";
/**
 * Queued, or running under an expired lease (or none). `$now` is the parameter of the
 * caller's now as an offset from the database's clock (msFromNow): leases are read and
 * written on that one clock, so a replica whose clock runs ahead takes over no live lease.
 */
const claimable = (now: string) =>
  `(status = 'queued' OR (status = 'running' AND (lease_expires_at IS NULL OR lease_expires_at < ${DB_NOW_MS} + ${now})))`;

/**
 * Job rows, their events and log lines, as JobStore (../sqlite/jobs.ts) keeps them, with the
 * same guards: every state change requires NOT_TERMINAL, so a finished job never changes
 * again, and every change a running attempt makes requires its lease, so a replica that
 * lost its lease cannot write over the one that took the job over. Reads that decide a
 * write lock the row (FOR UPDATE): under READ COMMITTED another replica could otherwise
 * change it between the read and the write, which SQLite's single writer rules out.
 */
export class PgJobStore {
  private readonly listeners = new Set<(change?: JobChange) => void>();

  constructor(private readonly db: PgDb) {}

  /**
   * Calls `listener` after each change of a job's status, phase or progress made through
   * this store, once the change has committed, and with each change other replicas made
   * that the change feed hears (`heard`).
   */
  onChange(listener: (change?: JobChange) => void): void {
    this.listeners.add(listener);
  }

  /** Another process's change, or (none) anything may have changed: see change-feed.ts. */
  heard(change?: JobChange): void {
    for (const listener of this.listeners) listener(change);
  }

  /** Tells the listeners of `row`'s change once it has committed. */
  private notify(row: { id: string; status: JobStatus; revision: number }): void {
    const change: JobChange = { id: row.id, status: row.status, revision: row.revision, elsewhere: false };
    this.db.afterCommit(() => {
      for (const listener of this.listeners) listener(change);
    });
  }

  async create(job: {
    id: string;
    modelId: string;
    jobType: string;
    request: unknown;
    digest: string;
    /** The process holding the job's keys in memory, or null for a job without keys. */
    keyHolder: string | null;
  }): Promise<JobRow> {
    const now = nowIso();
    let row: JobRow | undefined;
    // The row, its first event and the row as stored in one statement: one round trip, one commit.
    // In a caller's transaction, a savepoint: a duplicate id then spoils only this statement.
    const insert = () =>
      this.db.one<JobRow>(
        `WITH job AS (
           INSERT INTO jobs (id, model_id, job_type, status, progress, phase, created_at, attempts, request, request_digest, had_keys, key_holder, revision)
             VALUES ($1, $2, $3, 'queued', 0, 'queued', $4, 0, $5, $6, $7, $8, 1) RETURNING ${JOB_COLUMNS}),
         event AS (
           INSERT INTO job_events (job_id, timestamp, status, phase, progress, message)
             SELECT id, $4, 'queued', 'queued', 0, 'job accepted' FROM job)
         SELECT * FROM job`,
        [
          job.id,
          job.modelId,
          job.jobType,
          now,
          JSON.stringify(job.request),
          job.digest,
          job.keyHolder ? 1 : 0,
          job.keyHolder,
        ],
      );
    try {
      row = await (this.db.inTransaction() ? this.db.transaction(insert) : insert());
    } catch (err) {
      const e = err as { code?: unknown; constraint?: unknown };
      if (e.code === "23505" && e.constraint === "jobs_pkey") throw new DuplicateJobError(job.id);
      throw err;
    }
    this.notify(row!);
    return row!;
  }

  /** `lock`: FOR UPDATE, for a caller's transaction that decides a write on what it reads (no other replica changes the row meanwhile). */
  async row(id: string, options: { lock?: boolean } = {}): Promise<JobRow | undefined> {
    return this.db.one<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id = $1${options.lock ? " FOR UPDATE" : ""}`, [
      id,
    ]);
  }

  /** A job of this model, or undefined (another model's job is as absent as a missing one). */
  async get(modelId: string, id: string): Promise<JobRow | undefined> {
    const row = await this.row(id);
    return row && row.model_id === modelId ? row : undefined;
  }

  /**
   * Jobs some process may take now, oldest first: queued, under an expired lease, or
   * running in a process known to be dead (`deadOwners`: no need to wait for their leases).
   */
  async claimable(now: number, limit: number, deadOwners: readonly string[] = []): Promise<ClaimCandidate[]> {
    return this.db.rows<ClaimCandidate>(
      `SELECT id, status, attempts, had_keys, key_holder, lease_owner FROM jobs
         WHERE ${claimable("$1::bigint")} OR (status = 'running' AND lease_owner = ANY($2::text[]))
         ORDER BY created_at, seq LIMIT $3`,
      [msFromNow(now), deadOwners, limit],
    );
  }

  /**
   * Takes a job for one attempt under a lease, atomically: of several replicas claiming
   * the same job, exactly one gets the row back. A row another claimer has locked is
   * skipped (SKIP LOCKED) rather than waited for: that claimer is taking it. The claim
   * bumps `attempts`, the fencing token FinishGuard's `attempt` names, and `revision`.
   */
  async claim(
    id: string,
    lease: { owner: string; expiresAt: number },
    now: number,
    message: string,
    /** The job's lease holder when it is known to be dead: its lease need not have expired. */
    deadOwner: string | null = null,
  ): Promise<JobRow | undefined> {
    // Not acknowledged to anyone: lost in a crash, the job is simply claimable again.
    return this.db.relaxed(() =>
      this.take(
        `SELECT id FROM jobs WHERE id = $4 AND (${claimable("$5::bigint")} OR (status = 'running' AND lease_owner = $6))
           FOR UPDATE SKIP LOCKED`,
        [id, msFromNow(now), deadOwner],
        lease,
        message,
      ),
    );
  }

  /**
   * Claims the oldest job that needs no decision of the runner's (no keys, or keys held
   * by `lease.owner`; attempts left), skipping rows other claimers hold: many replicas
   * calling it at once each get a different job. Others go through `claimable` and `claim`.
   */
  async claimNext(
    lease: { owner: string; expiresAt: number },
    now: number,
    message: string,
  ): Promise<JobRow | undefined> {
    return this.db.relaxed(() =>
      this.take(
        `SELECT id FROM jobs WHERE ${claimable("$4::bigint")} AND (had_keys = 0 OR key_holder = $5) AND attempts < $6
           ORDER BY created_at, seq LIMIT 1 FOR UPDATE SKIP LOCKED`,
        [msFromNow(now), lease.owner, MAX_ATTEMPTS],
        lease,
        message,
      ),
    );
  }

  /**
   * Takes the row `pick` selects and locks (its parameters from $4 on), its event and the row
   * as now stored, in one statement: a row `pick` skips or finds gone is not taken (undefined).
   */
  private async take(
    pick: string,
    pickParams: readonly SqlParam[],
    lease: { owner: string; expiresAt: number },
    message: string,
  ): Promise<JobRow | undefined> {
    const at = nowIso();
    const row = await this.db.one<JobRow>(
      `WITH job AS (
         UPDATE jobs SET status = 'running', phase = 'reading', progress = 0, started_at = $1, attempts = attempts + 1,
             lease_owner = $2, lease_expires_at = ${DB_NOW_MS} + $3::bigint, revision = revision + 1
           WHERE id = (${pick}) RETURNING ${JOB_COLUMNS}),
       event AS (
         INSERT INTO job_events (job_id, timestamp, status, phase, progress, message)
           SELECT id, $1, 'running', 'reading', 0, $${pickParams.length + 4} FROM job)
       SELECT * FROM job`,
      [at, lease.owner, msFromNow(lease.expiresAt), ...pickParams, message],
    );
    if (row) this.notify(row);
    return row;
  }

  /**
   * Extends the leases of `ids`, the jobs this process still runs; the number renewed.
   * Only those: a job whose attempt was given up without an ending must see its lease run out.
   */
  async renewLeases(owner: string, expiresAt: number, ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    return this.db.tick(() =>
      this.db.run(
        `UPDATE jobs SET lease_expires_at = ${DB_NOW_MS} + $1::bigint WHERE lease_owner = $2 AND status = 'running' AND id = ANY($3::text[])`,
        [msFromNow(expiresAt), owner, ids],
      ),
    );
  }

  /** Status and lease holder of the given jobs: how a process learns that a job it runs was cancelled or taken over. */
  async leases(ids: readonly string[]): Promise<Array<{ id: string; status: JobStatus; lease_owner: string | null }>> {
    if (ids.length === 0) return [];
    return this.db.rows("SELECT id, status, lease_owner FROM jobs WHERE id = ANY($1::text[])", [ids]);
  }

  /** Records progress of the attempt holding the lease; a new phase also becomes an event. */
  async progress(id: string, owner: string, phase: string, progress: number): Promise<void> {
    await this.writeRunReports(id, owner, [{ kind: "progress", phase, progress }]);
  }

  /** A running attempt's log lines and progress reports in one relaxed transaction; see job-reports.ts. */
  async writeRunReports(id: string, owner: string, entries: readonly RunReport[]): Promise<void> {
    const changed = await writeRunReports(this.db, { id, owner, entries });
    if (changed) this.notify(changed);
  }

  /**
   * Moves a job to a terminal state if `guard` still allows it; false otherwise (the
   * job already ended, was cancelled, or another process holds its lease or attempt).
   */
  async finish(
    id: string,
    status: Exclude<TerminalJobStatus, "cancelled">,
    outcome: { error?: JobErrorBody; result?: unknown; message?: string },
    guard: FinishGuard,
  ): Promise<boolean> {
    const now = nowIso();
    const write = async () => {
      const row = await this.row(id, { lock: true });
      if (!row || !allows(row, await this.onDbClock(guard))) return false;
      const progress = status === "succeeded" ? 1 : row.progress;
      const phase = status === "succeeded" ? "done" : row.phase;
      // The ending and its event in one statement.
      const changed = await this.db.one<{ revision: number }>(
        `WITH job AS (
           UPDATE jobs SET status = $1, phase = $2, progress = $3, finished_at = $4, error = $5, result = $6,
               lease_owner = NULL, lease_expires_at = NULL, revision = revision + 1 WHERE id = $7 AND ${NOT_TERMINAL}
             RETURNING id, revision),
         event AS (
           INSERT INTO job_events (job_id, timestamp, status, phase, progress, message)
             SELECT id, $4, $1, $2, $3, $8 FROM job)
         SELECT revision FROM job`,
        [
          status,
          phase,
          progress,
          now,
          outcome.error ? JSON.stringify(outcome.error) : null,
          outcome.result === undefined ? null : JSON.stringify(outcome.result),
          id,
          outcome.message ?? outcome.error?.title ?? null,
        ],
      );
      if (changed) this.notify({ id, status, revision: changed.revision });
      return changed !== undefined;
    };
    // Inside a caller's transaction (endJob's) it joins it without a savepoint of its own:
    // its failure ends that transaction, which is all the caller does with it.
    return this.db.inTransaction() ? write() : this.db.transaction(write);
  }

  /** `guard` with its time moved onto the database's clock, which leases are written on. */
  private async onDbClock(guard: FinishGuard): Promise<FinishGuard> {
    if (!("unleasedAt" in guard)) return guard;
    const at = await this.db.one<{ at: number }>(`SELECT ${DB_NOW_MS} + $1::bigint AS at`, [
      msFromNow(guard.unleasedAt),
    ]);
    return { ...guard, unleasedAt: at!.at };
  }

  /** Cancels a queued or running job: the row after the call and whether this call cancelled it. */
  async cancel(id: string, message: string): Promise<{ row: JobRow; cancelled: boolean } | undefined> {
    const now = nowIso();
    return this.db.transaction(async () => {
      const changed = await this.db.run(
        `UPDATE jobs SET status = 'cancelled', finished_at = $1, lease_owner = NULL, lease_expires_at = NULL,
           revision = revision + 1 WHERE id = $2 AND ${NOT_TERMINAL}`,
        [now, id],
      );
      const row = await this.row(id);
      if (!row) return undefined;
      if (changed === 1) {
        await insertEvent(this.db, {
          id,
          status: "cancelled",
          phase: row.phase,
          progress: row.progress,
          message,
          at: now,
        });
        this.notify(row);
      }
      return { row, cancelled: changed === 1 };
    });
  }

  /** Puts a job this process runs back in the queue (its process is stopping); false if it no longer held it. */
  async requeue(id: string, owner: string, message: string): Promise<boolean> {
    const now = nowIso();
    return this.db.transaction(async () => {
      const changed = await this.db.one<{ revision: number }>(
        `UPDATE jobs SET status = 'queued', phase = 'queued', progress = 0, lease_owner = NULL, lease_expires_at = NULL,
           revision = revision + 1 WHERE id = $1 AND status = 'running' AND lease_owner = $2 RETURNING revision`,
        [id, owner],
      );
      if (changed) {
        await insertEvent(this.db, { id, status: "queued", phase: "queued", progress: 0, message, at: now });
        this.notify({ id, status: "queued", revision: changed.revision });
      }
      return changed !== undefined;
    });
  }

  async countQueued(): Promise<number> {
    return (await this.db.one<{ n: number }>("SELECT COUNT(*) AS n FROM jobs WHERE status = 'queued'"))!.n;
  }

  /** Queued jobs whose keys only this process holds. */
  async queuedWithKeysOf(owner: string): Promise<string[]> {
    const rows = await this.db.rows<{ id: string }>("SELECT id FROM jobs WHERE status = 'queued' AND key_holder = $1", [
      owner,
    ]);
    return rows.map((r) => r.id);
  }

  /** One log line, committed without waiting for its WAL flush, or as part of the caller's transaction. */
  async log(id: string, level: LogLevel, message: string, container: JobExecutionLogContainer): Promise<void> {
    await this.db.relaxed(() => insertLogs(this.db, [{ id, at: nowIso(), level, message, container }]));
  }

  /** Status and revision of a job: the cheap read behind job get's `wait`. */
  async revision(id: string): Promise<{ status: JobStatus; revision: number } | undefined> {
    return this.db.one("SELECT status, revision FROM jobs WHERE id = $1", [id]);
  }

  async record(row: JobRow, limit: number): Promise<JobRecord> {
    return jobRecord(this.db, row, limit);
  }

  async logs(row: JobRow, limit: number): Promise<JobExecutionLogDetails> {
    return jobLogs(this.db, row, limit);
  }
}
