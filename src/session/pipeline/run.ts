/**
 * One run of a pipeline: the input read, every step checked, one upload, then one job
 * per step, each on the previous job's output blob (nothing comes back to this machine
 * in between). The run's state, a view per step, is replaced on every change, so a
 * notebook card and the REPL's panel render the same snapshots; `cancel()` cancels the
 * running job and starts no more.
 */
import type { RecordType } from "../../core/contract/blob.js";
import type { JobRecord } from "../../core/contract/job.js";
import { AbortError, JobAlreadyEndedError, JobFailedError, MdpsError, jobEndedError } from "../../client/errors.js";
import type { Secret } from "../../client/secret.js";
import type { PipelineStepView } from "../presentation/views.js";
import { AUTO_INPUT_TAG } from "../auto-input-tag.js";
import { Blob, type UploadOptions } from "../blob.js";
import type { Job } from "../job/job.js";
import { combine } from "../abort-signals.js";
import { PipelineStepError } from "./errors.js";
import { describeStep, preflightSteps, type PipelineStep } from "./steps.js";
import { prepareUpload } from "../prepared-input.js";
import type { RequestOptions } from "../request-options.js";
import { loadDanfo, type Uploadable } from "../table-io.js";
import { FittedPipeline, PIPELINE_FORMAT, PIPELINE_VERSION } from "./fitted.js";
import { outputFormat } from "../preprocess/output-format.js";
import type { SessionContext } from "../session-context.js";
import type { SessionReach } from "../session-reach.js";

export interface PipelineRunOptions extends RequestOptions {
  /** Each job's time limit on the service, ms (whole seconds, 1 s to 24 h). Default 1 h. */
  readonly jobTimeoutMs?: number | undefined;
  /** Encrypt the input and every step's output on this machine: `true` for a new key, or a key. */
  readonly encrypt?: boolean | string | Secret | undefined;
  /** How to upload the input when it is a DataFrame, path or bytes. */
  readonly upload?: Omit<UploadOptions, "encrypt" | "signal" | "timeoutMs"> | undefined;
}

/** What a finished run hands to its fitted pipeline. */
export interface PipelineRunResult {
  /** The input's columns, in order. */
  readonly columns: readonly string[];
  /** Each step's job, in order; all succeeded. */
  readonly jobs: readonly Job[];
  /** The last job's output. */
  readonly output: Blob;
  /** Every column a step transformed (as fitted, else as sent), in no particular order. */
  readonly features: readonly string[];
}

export type PipelineRunListener = (steps: readonly PipelineStepView[]) => void;

const isAbort = (error: unknown): boolean =>
  error instanceof AbortError || (error instanceof Error && error.name === "AbortError");

export class PipelineRun {
  readonly steps: readonly PipelineStep[];
  /** Settles when the run ends: the result, or the first step's error (a PipelineStepError when a job did not succeed). */
  readonly done: Promise<PipelineRunResult>;
  readonly #ctx: SessionContext<SessionReach>;
  readonly #stop = new AbortController();
  readonly #listeners = new Set<PipelineRunListener>();
  readonly #jobs: Job[] = [];
  #views: readonly PipelineStepView[];
  readonly #startedAt: number[] = [];

  constructor(
    ctx: SessionContext<SessionReach>,
    steps: readonly PipelineStep[],
    input: Uploadable | Blob,
    options: PipelineRunOptions,
  ) {
    this.#ctx = ctx;
    this.steps = steps;
    this.#views = steps.map((s) => ({ type: s.type, columns: s.columns ?? [], status: "pending" }));
    this.done = this.#run(input, options);
    // The caller may only ever read `done` through fit(); an unobserved failure is still theirs, not the process's.
    this.done.catch(() => undefined);
  }

  /** A view per step: status, phase, progress, job id, time, error. Replaced on every change. */
  get state(): readonly PipelineStepView[] {
    return this.#views;
  }

  /** The jobs sent so far, in step order. */
  get jobs(): readonly Job[] {
    return [...this.#jobs];
  }

  /**
   * The fitted pipeline, once every job succeeded (rejects as `done` does): each step's
   * fitted state from its job's result, applied here by `transform`.
   */
  async fitted(): Promise<FittedPipeline> {
    const [result, danfo] = await Promise.all([this.done, loadDanfo()]);
    const steps = result.jobs.map((job, i) => {
      const fitted = job.fitted;
      if (fitted === undefined) throw noFittedState(job, i);
      return {
        type: fitted.type,
        params: fitted.params,
        columns: [...fitted.feature_names_in_],
        job_id: job.id,
        fitted,
      };
    });
    return new FittedPipeline(
      { format: PIPELINE_FORMAT, version: PIPELINE_VERSION, columns: [...result.columns], steps },
      danfo,
      { jobs: result.jobs, output: result.output },
    );
  }

  /** Calls `listener` with the new state at every change; returns a function that unsubscribes. */
  subscribe(listener: PipelineRunListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Cancels the running job and starts no more; resolves once the run has ended. `done`
   * then rejects with a PipelineStepError of status `cancelled` naming the step whose job
   * was running, or with an AbortError naming the next step when the stop came between
   * two jobs (or during the upload, before any).
   */
  async cancel(): Promise<void> {
    this.#stop.abort(new AbortError("The pipeline was cancelled."));
    await this.done.catch(() => undefined);
  }

  async #run(input: Uploadable | Blob, options: PipelineRunOptions): Promise<PipelineRunResult> {
    const signal = combine(options.signal, this.#stop.signal);
    const first = await this.#inputBlob(input, options, signal);
    let current = first.blob;
    const features = new Set<string>();
    for (let i = 0; i < this.steps.length; i++) {
      const step = this.steps[i]!;
      if (signal?.aborted) throw this.#stoppedBetween(i);
      this.#startedAt[i] = Date.now();
      const sent = step.columns !== undefined && step.columns.length > 0 ? step.columns : first.numeric;
      const job = await this.#ctx.session.preprocess(current, {
        type: step.type,
        params: step.params,
        // "Every numeric column" named: the input's numeric columns are every step's (a job
        // keeps each column's kind), and a service need not know that [] means all of them.
        columns: sent,
        jobTimeoutMs: options.jobTimeoutMs,
        outputs: {
          name: `${stripExtension(first.blob.name)}-step-${i + 1}-${step.type}`,
          ...(first.outputRecordType !== undefined ? { recordType: first.outputRecordType } : {}),
        },
        requestTimeoutMs: options.requestTimeoutMs,
        signal,
      });
      this.#jobs.push(job);
      this.#setView(i, { jobId: job.id, ...(job.record ? snapshot(job.record) : { status: "queued" }) });
      await this.#wait(i, job, signal);
      for (const name of job.fitted?.feature_names_in_ ?? sent ?? []) features.add(name);
      const outputs = await job.outputs({ signal: options.signal });
      const output = outputs[0];
      if (output === undefined) {
        throw new MdpsError(
          "no_output",
          `Pipeline step ${i + 1} (job ${job.id}): the job's result names no output blob.`,
        );
      }
      current = output;
    }
    const firstResult = await this.#jobs[0]!.result();
    return {
      columns: first.columns ?? firstResult.columns ?? [],
      jobs: [...this.#jobs],
      output: current,
      features: [...features],
    };
  }

  /** The input as a blob: a Blob as it is, anything else read, checked against every step, then uploaded. */
  async #inputBlob(
    input: Uploadable | Blob,
    options: PipelineRunOptions,
    signal: AbortSignal | undefined,
  ): Promise<{
    blob: Blob;
    columns: readonly string[] | undefined;
    numeric: readonly string[] | undefined;
    /** The steps' output format where the caller named none; undefined: the input's. */
    outputRecordType?: RecordType | undefined;
  }> {
    if (input instanceof Blob) {
      const shape = input.shape;
      const numeric = shape?.columns.filter((c) => /^(float|int)/.test(shape.dtypes[c] ?? ""));
      return { blob: input, columns: shape?.columns, numeric };
    }
    const prepared = await prepareUpload(
      input,
      options.upload?.recordType,
      this.#ctx.wireFormat,
      options.upload ?? {},
      this.#ctx.reads,
    );
    const table = await prepared.table();
    for (const warning of preflightSteps(table, this.steps)) this.#ctx.notify(warning.message);
    // Every step's output is read again (by the next step, or as the fit's frame): in the faster format.
    const format = outputFormat({
      inputRecordType: prepared.source.recordType,
      wireFormat: this.#ctx.wireFormat,
      chosen: options.upload?.recordType,
      rows: table.rowCount,
      columns: table.columns.length,
      name: prepared.source.suggestedName ?? "The input",
    });
    if (format.notice !== undefined) this.#ctx.notify(format.notice);
    signal?.throwIfAborted();
    const blob = await this.#ctx.session.upload(prepared, {
      ...options.upload,
      // Uploaded on its own: kept for a while, then pruned (../../local/auto-inputs.ts).
      tags: [...(options.upload?.tags ?? []), AUTO_INPUT_TAG],
      encrypt: options.encrypt,
      signal,
      timeoutMs: options.requestTimeoutMs,
    });
    return {
      blob,
      columns: table.columns.map((c) => c.name),
      numeric: table.columns.filter((c) => c.kind === "number").map((c) => c.name),
      outputRecordType: format.recordType,
    };
  }

  /** Waits for step `i`'s job; a job that did not succeed, or a stop, ends the chain with the step named. */
  async #wait(i: number, job: Job, signal: AbortSignal | undefined): Promise<void> {
    try {
      await job.wait({ signal, progress: false, onUpdate: (record) => this.#setView(i, snapshot(record)) });
      this.#setView(i, { status: "succeeded", progress: 1, phase: null });
    } catch (error) {
      if (error instanceof JobFailedError) throw this.#failed(i, error);
      if (!isAbort(error)) throw error;
      // Stopped (cancel(), the caller's signal, a kernel interrupt): the chain cannot go on
      // without this process, so the running job is cancelled rather than left to run.
      throw this.#failed(i, await cancelled(job, error));
    }
  }

  #failed(i: number, error: JobFailedError | Error): Error {
    const record = error instanceof JobFailedError ? (error.record as JobRecord | undefined) : undefined;
    this.#setView(i, {
      ...(record?.status !== undefined ? snapshot(record) : {}),
      status: error instanceof JobFailedError ? error.status : "unknown",
      error:
        error instanceof JobFailedError
          ? { title: error.title, detail: error.detail }
          : { title: "stopped", detail: error.message },
    });
    if (!(error instanceof JobFailedError)) return error;
    const step = this.steps[i]!;
    return new PipelineStepError({
      step: i + 1,
      steps: this.steps.length,
      stepType: step.type,
      stepText: describeStep(step),
      error,
    });
  }

  #stoppedBetween(i: number): AbortError {
    return new AbortError(
      `Stopped the pipeline before step ${i + 1} of ${this.steps.length} (${describeStep(this.steps[i]!)}): no job of it was sent.`,
    );
  }

  #setView(i: number, change: Partial<PipelineStepView>): void {
    const started = this.#startedAt[i];
    this.#views = this.#views.map((v, k) =>
      k === i ? { ...v, ...change, ...(started === undefined ? {} : { elapsedMs: Date.now() - started }) } : v,
    );
    for (const listener of [...this.#listeners]) {
      try {
        listener(this.#views);
      } catch {
        // A display that throws must not stop the chain.
      }
    }
  }
}

/** Cancels a job whose wait was stopped: its cancelled ending, or (cancel impossible) why it goes on. */
async function cancelled(job: Job, stop: unknown): Promise<JobFailedError | Error> {
  try {
    const record = await job.cancel();
    return jobEndedError({
      jobId: job.id,
      status: record.status,
      title: "cancelled",
      detail: "the pipeline was stopped while this step ran, so its job was cancelled",
      record,
    });
  } catch (error) {
    if (error instanceof JobAlreadyEndedError) {
      return new AbortError(
        `The pipeline was stopped as job ${job.id} ended ${error.jobStatus}; no later step was started.`,
        { cause: stop },
      );
    }
    const why = error instanceof Error ? error.message : String(error);
    return new AbortError(
      `The pipeline was stopped, but job ${job.id} could not be cancelled (${why}): it goes on; no later step was started.`,
      { cause: stop },
    );
  }
}

function noFittedState(job: Job, i: number): MdpsError {
  return new MdpsError(
    "no_fitted_state",
    `Pipeline step ${i + 1}: job ${job.id}'s result has no fitted state (the service returned none), so there is no ` +
      `pipeline to apply here. The chain's output is there: run.done gives its blob. If the service returns the ` +
      `fitted state only on request, set how it is asked for: the fittedQuery option or the profile key fitted_query.`,
  );
}

function snapshot(record: JobRecord): Partial<PipelineStepView> {
  return {
    status: record.status,
    phase: record.phase ?? null,
    ...(record.progress !== undefined ? { progress: record.progress } : {}),
  };
}

function stripExtension(name: string): string {
  return name.replace(/\.(csv|json|arrow|feather|ipc|parquet)$/i, "");
}
