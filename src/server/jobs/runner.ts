import { hostname } from "node:os";
import type { FastifyBaseLogger } from "fastify";
import type { JobExecutionLogContainer } from "../../core/contract/index.js";
import type { Store } from "../http/plugins/store.js";
import { nowIso } from "../domain/clock.js";
import type { ClaimCandidate, FinishGuard, JobRow, RunReport } from "../domain/job-rows.js";
import { claimMessage, decideClaim } from "./claim-decision.js";
import { KEYS_LOST, type JobKeys } from "./job-keys.js";
import { isTransientStorageFault, storageFaultOf } from "../store/storage-fault.js";
import { commitFailed, failedWith, INTERNAL_ERROR } from "./run-ending.js";
import type { AttemptEnd, FailedEnding, LogLine } from "./attempt.js";
import { runAttempt, type AttemptContext } from "./attempt-run.js";
import { RunReportBatch } from "./run-report-batch.js";
import type { StoredPreprocessingRequest } from "./submission.js";
import { WorkerPool } from "./worker-pool.js";
import type { WorkerSlot } from "./worker-slot.js";

export interface RunnerStats {
  workers: number;
  alive: number;
  busy: number;
  queued: number;
}

export interface JobRunnerOptions {
  store: Store;
  region: string;
  workers: number;
  /** Lease length; renewed every third of it. */
  leaseMs: number;
  /** The most bytes a job's outputs may hold together (none is stored beyond it). */
  maxOutputBytes: number;
  log: FastifyBaseLogger;
}

/** How often a process looks for queued jobs and expired leases (besides when a job is sent to it). */
const POLL_MS = 1000;
/** How often a process checks that the jobs it runs are still its own (cancelled? taken over?). */
const WATCH_MS = 200;

/**
 * Runs jobs of the shared store on this process's worker threads. Any number of
 * processes may run a runner on one store: each claims a job atomically under a
 * lease it renews while the job runs, and takes over jobs whose lease expired (their
 * process died). A job with keys runs only in the process that received them.
 * Each attempt pins its input, runs in a worker (which enforces
 * request_timeout_seconds), and ends in one write: the output commit or the failure,
 * each only while the lease is still this process's.
 */
export class JobRunner {
  private readonly store: Store;
  private readonly log: FastifyBaseLogger;
  private readonly leaseMs: number;
  /** What an attempt needs of its runner (attempt-run.ts). */
  private readonly attemptContext: AttemptContext;
  private readonly pool: WorkerPool;
  private readonly keys = new Map<string, JobKeys>();
  /** Jobs running here, each with the switch that stops its run. */
  private readonly running = new Map<string, AbortController>();
  private readonly mainContainer: JobExecutionLogContainer;
  private timers: NodeJS.Timeout[] = [];
  /** The poll under way: one at a time (see poll). */
  private polling: Promise<void> | undefined;
  private pollAgain = false;
  private closed = false;

  constructor(options: JobRunnerOptions) {
    this.store = options.store;
    this.log = options.log;
    this.leaseMs = options.leaseMs;
    this.attemptContext = {
      store: options.store,
      maxOutputBytes: options.maxOutputBytes,
      log: options.log,
      isClosed: () => this.closed,
    };
    this.pool = new WorkerPool(options.workers, options.region);
    this.mainContainer = { hostname: hostname(), replicaName: `${options.region}-service`, processId: process.pid };
  }

  private get owner(): string {
    return this.store.me.ownerId;
  }

  start(): void {
    const every = (ms: number, tick: () => Promise<void>) => {
      let busy = false;
      const timer = setInterval(() => {
        // A tick still reading or writing (a slow database): this one is skipped.
        if (busy) return;
        busy = true;
        tick()
          .catch((err: unknown) => {
            // A busy or closing database: the next tick tries again.
            this.log.warn({ err }, "job runner tick failed");
          })
          .finally(() => (busy = false));
      }, ms);
      timer.unref();
      return timer;
    };
    this.timers = [
      every(Math.min(POLL_MS, this.leaseMs / 3), async () => {
        await this.forgetEndedKeys();
        await this.poll();
      }),
      every(this.leaseMs / 3, () => this.renew()),
      every(WATCH_MS, () => this.watch()),
    ];
    this.pollSafely();
  }

  /**
   * Keeps the keys of a job about to be created here (memory only), from before its row
   * exists, so that no poll of this process finds the row without them. The answer lets
   * go of them again, for a row that was refused (a job id already taken).
   */
  holdKeys(jobId: string, keys: JobKeys | null): () => void {
    if (!keys || this.keys.has(jobId)) return () => {};
    this.keys.set(jobId, keys);
    return () => this.keys.delete(jobId);
  }

  /** A job was just created here: look for work now. */
  submitted(): void {
    this.pollSafely();
  }

  /** A poll whose storage fault (a full disk, a busy database) is logged, never thrown: the next tick tries again. */
  private pollSafely(): void {
    this.poll().catch((err: unknown) => this.log.warn({ err }, "looking for jobs to run failed"));
  }

  /**
   * Cancels a job, whichever process runs it. Here, its run stops at once; in another
   * process, that process's watch notices within WATCH_MS. Undefined for an unknown job.
   */
  async cancel(jobId: string): Promise<{ row: JobRow; cancelled: boolean } | undefined> {
    const outcome = await this.store.jobs.cancel(jobId, "cancelled by request");
    if (outcome?.cancelled) {
      this.running.get(jobId)?.abort();
      this.keys.delete(jobId);
      await this.store.jobs.log(
        jobId,
        "info",
        `cancelled by request (received by process ${process.pid})`,
        this.mainContainer,
      );
    }
    return outcome;
  }

  async stats(): Promise<RunnerStats> {
    return { ...this.pool.stats(), queued: await this.store.jobs.countQueued() };
  }

  /**
   * Stops the workers, then hands back what this process held: its running jobs go
   * back to the queue (a job with keys fails: they die with this process), so another
   * process need not wait for the leases to expire.
   */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearInterval(timer);
    // A poll under way stops at its next step; a job it claimed meanwhile is among `held`.
    await this.polling?.catch(() => undefined);
    const held = [...this.running.keys()];
    await this.pool.close();
    const { jobs } = this.store;
    for (const id of held) {
      const row = await jobs.row(id);
      if (!row) continue;
      if (row.had_keys) {
        await this.recordFailure(id, failedWith(KEYS_LOST), { leaseOwner: this.owner }, this.mainContainer);
      } else if (
        await jobs.requeue(
          id,
          this.owner,
          `attempt ${row.attempts} was interrupted: its service process (pid ${process.pid}) stopped or restarted`,
        )
      ) {
        this.mainLog(id)(
          "warning",
          `attempt ${row.attempts} was interrupted: its service process (pid ${process.pid} on ${hostname()}) stopped or restarted; the job is queued again`,
        );
      }
    }
    for (const id of await jobs.queuedWithKeysOf(this.owner)) {
      await this.recordFailure(id, failedWith(KEYS_LOST), { unleasedAt: Date.now() }, this.mainContainer);
    }
    this.keys.clear();
  }

  private mainLog(jobId: string): LogLine {
    return (level, message) =>
      void this.store.jobs
        .log(jobId, level, message, this.mainContainer)
        .catch((err: unknown) => this.log.warn({ err, jobId }, "recording a job's log line failed"));
  }

  /**
   * Claims what this process may run, oldest first, while a worker is idle. One poll at a
   * time: a poll asked for while one runs makes that one look once more when it is done.
   */
  private async poll(): Promise<void> {
    if (this.polling) {
      this.pollAgain = true;
      return this.polling;
    }
    this.polling = (async () => {
      this.pollAgain = false;
      do await this.claimWhileIdle();
      while (this.askedAgain());
    })();
    try {
      await this.polling;
    } finally {
      this.polling = undefined;
    }
  }

  /** Whether a poll was asked for while the last one ran (and forgets it); never once closed. */
  private askedAgain(): boolean {
    const again = this.pollAgain && !this.closed;
    this.pollAgain = false;
    return again;
  }

  /** Read anew after every await: close() may have run meanwhile. */
  private isClosed(): boolean {
    return this.closed;
  }

  private async claimWhileIdle(): Promise<void> {
    if (this.closed) return;
    let idle = this.pool.idleCount();
    if (idle === 0) return;
    const now = Date.now();
    // Killed processes of this host: their jobs need not wait for the leases to expire.
    const dead = new Set(await this.store.processes.deadOnThisHost());
    for (const candidate of await this.store.jobs.claimable(now, idle + 16, [...dead])) {
      if (this.isClosed()) return;
      const owner = candidate.lease_owner;
      const deadOwner = owner !== null && dead.has(owner) ? owner : null;
      if (idle === 0) break;
      if (this.running.has(candidate.id)) continue;
      const keys = this.keys.get(candidate.id) ?? null;
      // The one process decideClaim may ask about: the holder of keys this process lacks.
      const holder = candidate.had_keys && keys === null ? candidate.key_holder : null;
      // By its lock: a holder paused past its lease, or whose clock disagrees, still has the keys.
      const holderAlive = holder !== null && (await this.store.processes.livesByLock(holder, now, this.leaseMs));
      const decision = decideClaim(candidate, {
        me: this.owner,
        hasKeys: keys !== null,
        isAlive: (ownerId) => ownerId === holder && holderAlive,
      });
      if (decision.kind === "skip") continue;
      // A late lease of a process of this host that still holds its lock is not a dead
      // process's: it is frozen or its clock lags, and the job stays its own.
      if (
        candidate.status === "running" &&
        owner !== null &&
        deadOwner === null &&
        owner !== this.owner &&
        (await this.store.processes.holdsLockHere(owner))
      )
        continue;
      if (decision.kind === "fail") {
        await this.recordFailure(candidate.id, decision.ending, { unleasedAt: now, deadOwner }, this.mainContainer);
        continue;
      }
      const row = await this.store.jobs.claim(
        candidate.id,
        { owner: this.owner, expiresAt: now + this.leaseMs },
        now,
        claimMessage(candidate, this.owner, deadOwner !== null),
        deadOwner,
      );
      const slot = row && this.pool.idleSlot();
      if (!row || !slot) continue; // another process was faster
      idle--;
      this.pool.runOn(
        slot,
        () =>
          this.execute(slot, row, keys, candidate).catch((err: unknown) =>
            this.log.error({ err, jobId: row.id }, "job runner error"),
          ),
        () => this.pollSafely(),
      );
    }
  }

  /** Drops the keys of queued jobs that ended elsewhere (cancelled through another process): keys stay no longer than needed. */
  private async forgetEndedKeys(): Promise<void> {
    const waiting = [...this.keys.keys()].filter((id) => !this.running.has(id));
    for (const job of await this.store.jobs.leases(waiting)) {
      if (job.status !== "queued" && job.status !== "running") this.keys.delete(job.id);
    }
  }

  /** Extends the leases of the jobs running here. */
  private async renew(): Promise<void> {
    if (this.running.size > 0)
      await this.store.jobs.renewLeases(this.owner, Date.now() + this.leaseMs, [...this.running.keys()]);
  }

  /** Stops runs whose job is no longer this process's: cancelled (by any process) or taken over. */
  private async watch(): Promise<void> {
    if (this.running.size === 0) return;
    for (const job of await this.store.jobs.leases([...this.running.keys()])) {
      if (job.status !== "running" || job.lease_owner !== this.owner) this.running.get(job.id)?.abort();
    }
  }

  private async execute(slot: WorkerSlot, row: JobRow, keys: JobKeys | null, claimed: ClaimCandidate): Promise<void> {
    const jobId = row.id;
    const container = { hostname: hostname(), replicaName: slot.replicaName, processId: process.pid };
    const reports = new RunReportBatch(
      async (entries) => {
        if (!this.closed) await this.store.jobs.writeRunReports(jobId, this.owner, entries);
      },
      (err) => this.log.warn({ err, jobId }, "recording a job's logs or progress failed"),
    );
    const log: LogLine = (level, message) => reports.add({ kind: "log", level, message, container, at: nowIso() });
    const abort = new AbortController();
    this.running.set(jobId, abort);
    let end: AttemptEnd = { kind: "abandoned" };
    try {
      if (claimed.status === "running") {
        log(
          "warning",
          `attempt ${claimed.attempts} did not finish: its process (${claimed.lease_owner ?? "unknown"}) died or stopped renewing its lease`,
        );
      }
      const request = JSON.parse(row.request) as StoredPreprocessingRequest;
      log(
        "info",
        `attempt ${row.attempts} of job ${jobId} (${request.preprocessing_type}) started on ${slot.replicaName} (process ${process.pid} on ${hostname()})`,
      );
      end = await runAttempt(this.attemptContext, {
        slot,
        row,
        request,
        keys,
        log,
        container,
        reports,
        signal: abort.signal,
      }).catch((err: unknown): AttemptEnd => {
        if (this.closed) return { kind: "abandoned" }; // close() hands the job back
        if (isTransientStorageFault(err)) {
          // The database was busy or unreachable: not the job's fault. Its lease runs out and it runs again.
          this.log.warn({ err, jobId }, "a job's attempt met the database unavailable; it runs again");
          return { kind: "abandoned" };
        }
        // A full or read-only disk fails the job saying so (the job is not at fault, nor is the service's code).
        const fault = storageFaultOf(err);
        if (fault === "full" || fault === "read_only") return { kind: "failed", ...failedWith(commitFailed(err)) };
        this.log.error({ err, jobId }, "job run failed");
        return { kind: "failed", ...failedWith(INTERNAL_ERROR) };
      });
      if (end.kind === "failed") {
        await reports.flush();
        const guard = { leaseOwner: this.owner, attempt: row.attempts };
        await this.recordFailure(jobId, end, guard, container, await reports.take());
      }
      if (end.kind === "stopped") {
        const now = await this.store.jobs.row(jobId);
        const why = now?.status === "cancelled" ? "the job was cancelled" : "another process took the job over";
        log("warning", `attempt ${row.attempts} stopped on ${slot.replicaName}: ${why}; its outputs were discarded`);
      }
    } finally {
      await reports.flush();
      this.running.delete(jobId);
      if (end.kind !== "abandoned") this.keys.delete(jobId);
    }
  }

  /**
   * The terminal state and its log line (after `pending`, the run's reports not written
   * yet), together, if `guard` still allows the write.
   */
  private async recordFailure(
    jobId: string,
    ending: FailedEnding,
    guard: FinishGuard,
    container: JobExecutionLogContainer,
    pending: readonly RunReport[] = [],
  ): Promise<void> {
    const line: RunReport = { kind: "log", level: "error", message: ending.logMessage, container, at: nowIso() };
    await this.store.endJob({
      jobId,
      status: ending.status,
      error: ending.error,
      guard,
      reports: { owner: this.owner, entries: [...pending, line] },
    });
  }
}
