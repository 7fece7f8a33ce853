import { hostname } from "node:os";
import type { FastifyBaseLogger } from "fastify";
import type { JobExecutionLogContainer, LogLevel, RecordType } from "../../contract/index.js";
import type { Store } from "../plugins/store.js";
import type { JobRow } from "../store/jobs.js";
import { commitOutputs } from "./commit-outputs.js";
import { pinInput } from "./job-input.js";
import { inputKeyRefusal, KEYS_LOST, type JobKeys } from "./job-keys.js";
import { recoverInterrupted } from "./recovery.js";
import { COMMIT_FAILED, endingOf, failedWith, inputGone, INTERNAL_ERROR, type FailedEnding } from "./run-ending.js";
import { runInWorker } from "./run-in-worker.js";
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
  log: FastifyBaseLogger;
}

type LogLine = (level: LogLevel, message: string) => void;

interface Attempt {
  slot: WorkerSlot;
  row: JobRow;
  request: StoredPreprocessingRequest;
  keys: JobKeys | null;
  log: LogLine;
}

/** What one attempt came to: committed outputs, a failure to record, or nothing (the service stopped). */
type AttemptEnd = { kind: "committed" } | { kind: "abandoned" } | ({ kind: "failed" } & FailedEnding);

/**
 * Runs queued jobs on a pool of worker threads, in creation order. The database is
 * the source of truth; the queue here is only order. Each attempt pins its input,
 * runs in a worker (which enforces request_timeout_seconds), and ends in one write:
 * the output commit or the failure.
 */
export class JobRunner {
  private readonly store: Store;
  private readonly log: FastifyBaseLogger;
  private readonly pool: WorkerPool;
  private readonly queue: string[] = [];
  private readonly keys = new Map<string, JobKeys>();
  private readonly mainContainer: JobExecutionLogContainer;
  private closed = false;

  constructor(options: JobRunnerOptions) {
    this.store = options.store;
    this.log = options.log;
    this.pool = new WorkerPool(options.workers, options.region);
    this.mainContainer = { hostname: hostname(), replicaName: `${options.region}-service`, processId: process.pid };
  }

  /** Restart recovery, then everything queued runs in creation order. */
  start(): void {
    recoverInterrupted(this.store.jobs, this.mainContainer);
    this.queue.push(...this.store.jobs.queuedIds());
    this.pump();
  }

  submit(jobId: string, keys: JobKeys | null): void {
    if (keys) this.keys.set(jobId, keys);
    this.queue.push(jobId);
    this.pump();
  }

  stats(): RunnerStats {
    return { ...this.pool.stats(), queued: this.queue.length };
  }

  /** Stops the workers. Jobs still running stay `running` and are requeued at the next start. */
  async close(): Promise<void> {
    this.closed = true;
    await this.pool.close();
    this.keys.clear();
  }

  private pump(): void {
    for (;;) {
      if (this.closed) return;
      const slot = this.pool.idleSlot();
      const jobId = slot && this.queue.shift();
      if (!slot || jobId === undefined) return;
      this.pool.runOn(
        slot,
        () => this.execute(slot, jobId).catch((err: unknown) => this.log.error({ err, jobId }, "job runner error")),
        () => this.pump(),
      );
    }
  }

  private async execute(slot: WorkerSlot, jobId: string): Promise<void> {
    const { jobs } = this.store;
    const row = jobs.row(jobId);
    if (!row || row.status !== "queued") return;
    const container = { hostname: hostname(), replicaName: slot.replicaName, processId: process.pid };
    const log: LogLine = (level, message) => jobs.log(jobId, level, message, container);
    const keys = this.keys.get(jobId) ?? null;
    try {
      if (row.had_keys && !keys) return this.recordFailure(jobId, failedWith(KEYS_LOST), log);
      if (!jobs.start(jobId)) return;
      const request = JSON.parse(row.request) as StoredPreprocessingRequest;
      log(
        "info",
        `attempt ${row.attempts + 1} of job ${jobId} (${request.preprocessing_type}) started on ${slot.replicaName}`,
      );
      const end = await this.attempt({ slot, row, request, keys, log }).catch((err: unknown): AttemptEnd => {
        if (this.closed) return { kind: "abandoned" }; // the next start requeues it
        this.log.error({ err, jobId }, "job run failed");
        return { kind: "failed", ...failedWith(INTERNAL_ERROR) };
      });
      if (end.kind === "failed") this.recordFailure(jobId, end, log);
    } finally {
      this.keys.delete(jobId);
    }
  }

  /** One run of a started job. Every temp file is gone when it returns, so whoever sees the job end sees a clean tmp/. */
  private async attempt({ slot, row, request, keys, log }: Attempt): Promise<AttemptEnd> {
    const { jobs, files } = this.store;
    const input = await pinInput(this.store, row.model_id, request.input_blob_id);
    if (!input) return { kind: "failed", ...failedWith(inputGone(request.input_blob_id)) };
    const tempPaths = request.output.map(() => files.tempPath());
    try {
      let run;
      try {
        const refusal = inputKeyRefusal(input.blob.encrypted === 1, keys);
        if (refusal) return { kind: "failed", ...failedWith(refusal) };
        run = await runInWorker({
          slot,
          jobId: row.id,
          inputPath: input.path,
          inputRecordType: input.blob.record_type as RecordType,
          request,
          keys,
          tempPaths,
          onEvent: (event) => {
            if (this.closed) return;
            if (event.type === "progress") jobs.progress(row.id, event.phase, event.progress);
            else log(event.level, event.message);
          },
        });
      } finally {
        await files.remove(input.path);
      }
      const { outcome } = run;
      if (outcome.kind !== "done") {
        if (this.closed && outcome.kind === "crash") return { kind: "abandoned" }; // terminated by close()
        return { kind: "failed", ...endingOf(outcome, request.request_timeout_seconds) };
      }
      try {
        await commitOutputs({
          store: this.store,
          jobId: row.id,
          modelId: row.model_id,
          request,
          message: run.message,
          done: outcome.done,
          startedAt: run.startedAt,
          log,
        });
        return { kind: "committed" };
      } catch (err) {
        this.log.error({ err, jobId: row.id }, "committing a job's outputs failed");
        return { kind: "failed", ...failedWith(COMMIT_FAILED) };
      }
    } finally {
      await Promise.all(tempPaths.map((p) => files.remove(p)));
    }
  }

  /** The terminal state and its log line, together. */
  private recordFailure(jobId: string, ending: FailedEnding, log: LogLine): void {
    this.store.db.transaction(() => {
      if (this.store.jobs.finish(jobId, ending.status, { error: ending.error })) log("error", ending.logMessage);
    })();
  }
}
