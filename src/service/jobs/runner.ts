import { randomUUID } from "node:crypto";
import { link } from "node:fs/promises";
import { hostname } from "node:os";
import type { FastifyBaseLogger } from "fastify";
import type { JobExecutionLogContainer, LogLevel, RecordType } from "../../contract/index.js";
import { contentTypeOf } from "../routes/blobs.js";
import type { Store } from "../plugins/store.js";
import { nowIso } from "../store/database.js";
import { toBlobRecord } from "../store/blobs.js";
import { MAX_ATTEMPTS, type JobErrorBody } from "../store/jobs.js";
import type { RunJobMessage } from "./messages.js";
import type { StoredPreprocessingRequest } from "./submission.js";
import { WorkerSlot, type RunOutcome } from "./worker-slot.js";

/** Keys of one job, held in memory only, from submit until the job ends. */
export interface JobKeys {
  input: Buffer | null;
  outputs: Array<Buffer | null>;
}

export const KEYS_LOST: JobErrorBody = {
  title: "Encryption keys lost",
  detail:
    "The job was interrupted by a service restart. Its encryption keys were held only in memory (the service never stores keys), so it cannot run again. Submit the job again with the keys.",
};

export interface RunnerStats {
  workers: number;
  alive: number;
  busy: number;
  queued: number;
}

/**
 * Runs queued jobs on a small pool of worker threads, enforces each job's
 * request_timeout_seconds, and commits outputs, result and final state in one
 * transaction. The database is the source of truth; the queue here is only order.
 */
export class JobRunner {
  private readonly slots: WorkerSlot[];
  private readonly queue: string[] = [];
  private readonly keys = new Map<string, JobKeys>();
  private readonly active = new Set<Promise<void>>();
  private closed = false;
  private readonly mainContainer: JobExecutionLogContainer;

  constructor(
    private readonly store: Store,
    private readonly region: string,
    workers: number,
    private readonly log: FastifyBaseLogger,
  ) {
    this.slots = Array.from({ length: workers }, (_, i) => new WorkerSlot(`${region}-worker-${i + 1}`));
    this.mainContainer = { hostname: hostname(), replicaName: `${region}-service`, processId: process.pid };
  }

  /** Restart recovery, then everything queued runs in creation order. */
  start(): void {
    const { jobs } = this.store;
    for (const job of jobs.runningIds()) {
      if (job.attempts >= MAX_ATTEMPTS) {
        const error = {
          title: "Interrupted too often",
          detail: `The job was interrupted by a service restart during each of its ${job.attempts} attempts and was given up. Submit it again.`,
        };
        jobs.finish(job.id, "failed", { error });
        jobs.log(job.id, "error", error.detail, this.mainContainer);
      } else if (job.had_keys) {
        jobs.finish(job.id, "failed", { error: KEYS_LOST });
        jobs.log(job.id, "error", KEYS_LOST.detail, this.mainContainer);
      } else {
        jobs.requeue(job.id, `requeued after a service restart interrupted attempt ${job.attempts}`);
        jobs.log(
          job.id,
          "warning",
          `attempt ${job.attempts} was interrupted by a service restart; the job is queued again`,
          this.mainContainer,
        );
      }
    }
    this.queue.push(...jobs.queuedIds());
    this.pump();
  }

  submit(jobId: string, keys: JobKeys | null): void {
    if (keys) this.keys.set(jobId, keys);
    this.queue.push(jobId);
    this.pump();
  }

  stats(): RunnerStats {
    return {
      workers: this.slots.length,
      alive: this.slots.filter((s) => s.alive).length,
      busy: this.slots.filter((s) => s.busy).length,
      queued: this.queue.length,
    };
  }

  /** Stops the workers. Jobs still running stay `running` and are requeued at the next start. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((s) => s.close()));
    await Promise.allSettled([...this.active]);
    this.keys.clear();
  }

  private pump(): void {
    while (!this.closed && this.queue.length > 0) {
      const slot = this.slots.find((s) => !s.busy);
      if (!slot) return;
      const jobId = this.queue.shift()!;
      slot.busy = true;
      const run = this.execute(slot, jobId)
        .catch((err: unknown) => this.log.error({ err, jobId }, "job runner error"))
        .finally(() => {
          slot.busy = false;
          this.active.delete(run);
          this.pump();
        });
      this.active.add(run);
    }
  }

  private async execute(slot: WorkerSlot, jobId: string): Promise<void> {
    const { jobs, blobs, blobLocks, files } = this.store;
    const row = jobs.row(jobId);
    if (!row || row.status !== "queued") return;
    const container = { hostname: hostname(), replicaName: slot.replicaName, processId: process.pid };
    const log = (level: LogLevel, message: string) => jobs.log(jobId, level, message, container);
    const fail = (error: JobErrorBody) => {
      jobs.finish(jobId, "failed", { error });
      log("error", `${error.title}: ${error.detail}`);
      this.keys.delete(jobId);
    };
    const keys = this.keys.get(jobId) ?? null;
    if (row.had_keys && !keys) return fail(KEYS_LOST);
    if (!jobs.start(jobId)) return;
    const request = JSON.parse(row.request) as StoredPreprocessingRequest;
    log(
      "info",
      `attempt ${row.attempts + 1} of job ${jobId} (${request.preprocessing_type}) started on ${slot.replicaName}`,
    );

    try {
      await this.runStarted(slot, jobId, row.model_id, request, keys, log, fail);
    } catch (err) {
      if (this.closed) return; // the next start requeues it
      this.log.error({ err, jobId }, "job run failed");
      fail({
        title: "Internal error",
        detail: "The service hit an unexpected error while running the job. Submit it again; report it if it repeats.",
      });
    }
  }

  private async runStarted(
    slot: WorkerSlot,
    jobId: string,
    modelId: string,
    request: StoredPreprocessingRequest,
    keys: JobKeys | null,
    log: (level: LogLevel, message: string) => void,
    fail: (error: JobErrorBody) => void,
  ): Promise<void> {
    const { jobs, blobs, blobLocks, files } = this.store;
    // A hard link pins the input's current revision: an update or delete meanwhile
    // removes only its own name for the bytes, never what this run reads.
    const input = await blobLocks.run(request.input_blob_id, async () => {
      const blob = blobs.get(modelId, request.input_blob_id);
      if (!blob) return undefined;
      const path = files.tempPath();
      await link(files.path(blob.id, blob.revision), path);
      return { blob, path };
    });
    if (!input) {
      return fail({
        title: "Input blob not found",
        detail: `The input blob ${request.input_blob_id} was deleted before the job ran. Upload it again and submit a new job.`,
      });
    }
    const tempPaths = request.output.map(() => files.tempPath());
    // Every temp file is gone before a terminal state is written, so whoever sees the
    // job finished also sees a clean tmp/ (the input pin first, the outputs in settle).
    let outcome: RunOutcome | { kind: "refused"; error: JobErrorBody };
    let message: RunJobMessage | undefined;
    let started = 0;
    try {
      if (input.blob.encrypted && !keys?.input) {
        outcome = {
          kind: "refused",
          error: {
            title: "Input is encrypted",
            detail:
              "The input blob is encrypted, but the request has no input_encryption_key. Submit again with the blob's key.",
          },
        };
      } else if (!input.blob.encrypted && keys?.input) {
        outcome = {
          kind: "refused",
          error: {
            title: "Input is not encrypted",
            detail:
              "The request has an input_encryption_key, but the input blob is not encrypted. Submit again without input_encryption_key.",
          },
        };
      } else {
        [outcome, message, started] = await this.runInWorker(slot, jobId, input, request, keys, tempPaths, log);
      }
    } finally {
      await files.remove(input.path);
    }
    try {
      if (outcome.kind === "refused") return fail(outcome.error);
      if (this.closed && outcome.kind === "crash") return; // terminated by close(): requeued at the next start
      await this.settle(
        jobId,
        modelId,
        message!,
        outcome,
        started,
        tempPaths,
        log,
        fail,
        request.request_timeout_seconds,
      );
    } finally {
      await Promise.all(tempPaths.map((p) => files.remove(p)));
    }
  }

  /** Runs the job on the worker thread; a timeout or crash leaves a fresh thread behind. */
  private async runInWorker(
    slot: WorkerSlot,
    jobId: string,
    input: { blob: { record_type: string }; path: string },
    request: StoredPreprocessingRequest,
    keys: JobKeys | null,
    tempPaths: string[],
    log: (level: LogLevel, message: string) => void,
  ): Promise<[RunOutcome, RunJobMessage, number]> {
    const { jobs } = this.store;
    if (!slot.alive) await slot.restart();
    const inputRecordType = input.blob.record_type as RecordType;
    const message: RunJobMessage = {
      type: "run",
      jobId,
      inputPath: input.path,
      inputRecordType,
      inputKey: keys?.input ?? null,
      preprocessingType: request.preprocessing_type,
      params: request.preprocessing_params,
      featureColumns: request.feature_columns,
      outputs: request.output.map((o, i) => ({
        name: o.name,
        recordType: (o.record_type ?? inputRecordType) as RecordType,
        tempPath: tempPaths[i]!,
        key: keys?.outputs[i] ?? null,
      })),
    };
    const started = performance.now();
    const outcome = await slot.run(
      message,
      (event) => {
        if (this.closed) return;
        if (event.type === "progress") jobs.progress(jobId, event.phase, event.progress);
        else log(event.level, event.message);
      },
      request.request_timeout_seconds * 1000,
    );
    if (!this.closed && (outcome.kind === "timeout" || outcome.kind === "crash")) await slot.restart();
    return [outcome, message, started];
  }

  private async settle(
    jobId: string,
    modelId: string,
    message: RunJobMessage,
    outcome: RunOutcome,
    started: number,
    tempPaths: string[],
    log: (level: LogLevel, message: string) => void,
    fail: (error: JobErrorBody) => void,
    timeoutSeconds: number,
  ): Promise<void> {
    const { jobs, files } = this.store;
    if (outcome.kind !== "done") await Promise.all(tempPaths.map((p) => files.remove(p)));
    switch (outcome.kind) {
      case "failed":
        log("error", outcome.logMessage);
        jobs.finish(jobId, "failed", { error: outcome.error });
        this.keys.delete(jobId);
        return;
      case "crash":
        return fail({
          title: "Worker crashed",
          detail: `The job's worker thread stopped unexpectedly (${outcome.message}). Submit the job again; report it if it repeats.`,
        });
      case "timeout": {
        const error = {
          title: "Timed out",
          detail: `The job ran longer than its request_timeout_seconds (${timeoutSeconds} s) and was stopped. Raise request_timeout_seconds (at most 86400) or send less data.`,
        };
        jobs.finish(jobId, "timed_out", { error });
        log("error", error.detail);
        this.keys.delete(jobId);
        return;
      }
      case "done":
        try {
          await this.commit(jobId, modelId, message, outcome.done, started, tempPaths, log);
        } catch (err) {
          this.log.error({ err, jobId }, "committing a job's outputs failed");
          fail({
            title: "Internal error",
            detail: "The job's outputs could not be stored. Retry; report it if it persists.",
          });
        }
        this.keys.delete(jobId);
        return;
    }
  }

  /** Places the output files, then commits their rows, the result and `succeeded` at once. */
  private async commit(
    jobId: string,
    modelId: string,
    message: RunJobMessage,
    done: Extract<RunOutcome, { kind: "done" }>["done"],
    started: number,
    tempPaths: string[],
    log: (level: LogLevel, message: string) => void,
  ): Promise<void> {
    const { db, jobs, blobs, files } = this.store;
    const request = JSON.parse(jobs.row(jobId)!.request) as StoredPreprocessingRequest;
    const ids = message.outputs.map(() => randomUUID());
    const placed: string[] = [];
    try {
      for (const [i, id] of ids.entries()) placed.push(await files.place(tempPaths[i]!, id, 1));
      const durationMs = Math.round(performance.now() - started);
      const committed = db.transaction(() => {
        const now = nowIso();
        const outputs = message.outputs.map((out, i) => {
          const spec = request.output[i]!;
          const encrypted = out.key !== null;
          return toBlobRecord(
            blobs.insert(
              ids[i]!,
              modelId,
              1,
              {
                name: spec.name,
                description: spec.description ?? null,
                record_type: out.recordType,
                access_tier: spec.access_tier,
                tags: spec.tags,
                content_type: contentTypeOf(out.recordType, encrypted),
                size_bytes: done.outputs[i]!.sizeBytes,
                sha256: done.outputs[i]!.sha256,
                encrypted,
              },
              now,
            ),
          );
        });
        const result = {
          job_id: jobId,
          status: "succeeded",
          rows: done.rows,
          columns: done.columns,
          feature_columns: done.featureColumns,
          outputs,
          fitted: done.fitted,
          duration_ms: durationMs,
        };
        if (!jobs.finish(jobId, "succeeded", { result, message: `wrote ${outputs.length} output blob(s)` })) {
          throw new Error("job left the running state before its commit");
        }
        log(
          "info",
          `succeeded in ${durationMs} ms: ${done.rows} rows; outputs ${outputs.map((o) => `'${o.name}' = blob ${o.id}`).join(", ")}`,
        );
        return true;
      })();
      if (!committed) throw new Error("commit failed");
    } catch (err) {
      await Promise.all(placed.map((p) => files.remove(p)));
      throw err;
    }
  }
}
