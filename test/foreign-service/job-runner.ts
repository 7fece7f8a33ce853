/**
 * Jobs in memory and their asynchronous run: queued, then running (and finalizing, when that
 * switch is on) on timers, then the transform, its output blobs and a terminal state. A job that
 * outlives its request_timeout_seconds is canceled.
 */
import { gunzipSync, gzipSync } from "node:zlib";
import { randomInt, randomUUID } from "node:crypto";
import type { BlobStore, StoredBlob } from "./blob-store.js";
import { formatCsv, parseCsv } from "./csv.js";
import type { OutputSpec, PreprocessingSpec } from "./job-requests.js";
import type { Settings } from "./switches.js";
import { applyTransform, type TransformOutput } from "./transforms.js";

export type JobState = "queued" | "running" | "finalizing" | "succeeded" | "failed" | "canceled";
export const TERMINAL_STATES: readonly JobState[] = ["succeeded", "failed", "canceled"];

export interface LogContainer {
  readonly hostname: string;
  readonly replicaName: string;
  readonly processId: number;
}

/** One line of `logs`: the container it came from and what it said. */
export interface LogEntry {
  readonly container: LogContainer;
  readonly details: { readonly timestamp: string; readonly level: "Information" | "Error"; readonly message: string };
}

export interface Job {
  readonly id: string;
  readonly via: "preprocessing" | "generic";
  /** The send's job id (generic `job_id`, preprocessing `job_id` or Idempotency-Key); never the job's id. */
  readonly clientJobId: string | undefined;
  readonly modelId: string;
  readonly spec: PreprocessingSpec;
  readonly createdAt: string;
  readonly container: LogContainer;
  state: JobState;
  outputBlobIds: string[];
  error: string | undefined;
  /** Per feature column, the fitted attributes (PascalCase), once succeeded. */
  fitted: TransformOutput["fitted"] | undefined;
  samples: number;
  readonly logs: LogEntry[];
}

export class JobRunner {
  private readonly jobs = new Map<string, Job>();
  private readonly timers = new Map<string, NodeJS.Timeout[]>();

  constructor(
    private readonly blobs: BlobStore,
    private readonly settings: Settings,
  ) {}

  submit(modelId: string, spec: PreprocessingSpec, via: Job["via"], clientJobId: string | undefined): Job {
    const job: Job = {
      id: randomUUID(),
      via,
      clientJobId,
      modelId,
      spec,
      createdAt: new Date().toISOString(),
      container: {
        hostname: `mdps-worker-${randomInt(1, 9)}.uk1.internal`,
        replicaName: `preprocessing-${randomUUID().slice(0, 5)}`,
        processId: randomInt(100, 32_000),
      },
      state: "queued",
      outputBlobIds: [],
      error: undefined,
      fitted: undefined,
      samples: 0,
      logs: [],
    };
    this.jobs.set(job.id, job);
    this.log(job, "Information", `Job accepted: ${spec.preprocessingType} on blob ${spec.inputBlobId}`);
    this.schedule(job);
    return job;
  }

  get(id: string): Job | undefined {
    return this.jobs.get(id);
  }

  findByClientJobId(clientJobId: string): Job | undefined {
    return [...this.jobs.values()].find((job) => job.clientJobId === clientJobId);
  }

  all(): readonly Job[] {
    return [...this.jobs.values()];
  }

  close(): void {
    for (const timers of this.timers.values()) timers.forEach(clearTimeout);
    this.timers.clear();
  }

  private schedule(job: Job): void {
    const delay = this.settings.jobDelayMs;
    const finalizing = this.settings.statusWords.finalizing !== undefined;
    // unref: a test that forgets close() must not keep the process alive on a one-hour timeout.
    const after = (ms: number, step: () => void): NodeJS.Timeout => setTimeout(step, ms).unref();
    const timers = [
      after(delay * 0.3, () => this.start(job)),
      ...(finalizing ? [after(delay * 0.7, () => this.advance(job, "finalizing", "Writing outputs"))] : []),
      after(delay, () => this.finish(job)),
      after(job.spec.timeoutSeconds * 1000, () => this.cancel(job)),
    ];
    this.timers.set(job.id, timers);
  }

  /** The one format this service reads and writes is CSV, under its first record type word. */
  private get csvWord(): string {
    return this.settings.recordTypes[0] ?? "Csv";
  }

  private start(job: Job): void {
    this.advance(job, "running", `Job started on ${job.container.replicaName}`);
  }

  private advance(job: Job, state: JobState, message: string): void {
    if (TERMINAL_STATES.includes(job.state)) return;
    job.state = state;
    this.log(job, "Information", message);
  }

  private cancel(job: Job): void {
    if (TERMINAL_STATES.includes(job.state)) return;
    this.end(job, "canceled", `Job canceled: it exceeded request_timeout_seconds (${job.spec.timeoutSeconds})`);
  }

  private finish(job: Job): void {
    if (TERMINAL_STATES.includes(job.state)) return;
    try {
      const input = this.blobs.find(job.modelId, job.spec.inputBlobId);
      if (input === undefined) throw new Error(`input blob ${job.spec.inputBlobId} no longer exists`);
      if (input.recordType !== this.csvWord)
        throw new Error(`input record type ${input.recordType} cannot be preprocessed`);
      const table = parseCsv(csvText(input.data));
      this.log(job, "Information", `Read ${table.rows.length} rows, ${table.header.length} columns`);
      const result = applyTransform(job.spec.preprocessingType, job.spec.params, table, job.spec.featureColumns, {
        fourTransforms: this.settings.fourTransforms,
      });
      this.log(job, "Information", `Fitted ${job.spec.preprocessingType} on ${job.spec.featureColumns.join(", ")}`);
      const outputs = job.spec.outputs.length > 0 ? job.spec.outputs : [defaultOutput(input, job)];
      job.outputBlobIds = outputs.map((output) => this.writeOutput(job, output, formatCsv(result)).blobId);
      job.fitted = result.fitted;
      job.samples = result.samples;
      this.end(job, "succeeded", `Job succeeded: wrote ${job.outputBlobIds.join(", ")}`);
    } catch (error) {
      this.end(job, "failed", `Job failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private writeOutput(job: Job, output: OutputSpec, csv: string): StoredBlob {
    if (output.recordType !== this.csvWord)
      throw new Error(`output record type ${output.recordType} is not produced here`);
    const data = Buffer.from(csv, "utf8");
    if (!this.settings.gzipOutputs) return this.blobs.create(job.modelId, { ...output, data });
    const name = output.name.endsWith(".gz") ? output.name : `${output.name}.gz`;
    return this.blobs.create(job.modelId, { ...output, name, data: gzipSync(data) });
  }

  private end(job: Job, state: JobState, message: string): void {
    job.state = state;
    if (state !== "succeeded") job.error = message;
    this.log(job, state === "succeeded" ? "Information" : "Error", message);
    (this.timers.get(job.id) ?? []).forEach(clearTimeout);
    this.timers.delete(job.id);
  }

  private log(job: Job, level: LogEntry["details"]["level"], message: string): void {
    job.logs.push({ container: job.container, details: { timestamp: new Date().toISOString(), level, message } });
  }
}

/** A blob's CSV text; a compressed output read back as an input is decompressed first. */
function csvText(data: Buffer): string {
  return (data[0] === 0x1f && data[1] === 0x8b ? gunzipSync(data) : data).toString("utf8");
}

function defaultOutput(input: StoredBlob, job: Job): OutputSpec {
  const stem = input.name.replace(/\.[^.]*$/, "");
  return {
    name: `${stem}-${job.spec.preprocessingType}.csv`,
    description: `Output of job ${job.id}`,
    recordType: input.recordType,
    accessTier: input.accessTier,
    tags: [],
  };
}
