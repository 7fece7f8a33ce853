/**
 * Everything a REPL session holds besides the screen: the Session, the named frames
 * (also JavaScript variables), the blobs uploaded and the jobs started here. Commands
 * work on this object; components never touch it.
 */
import { shownUrl } from "../../src/core/errors/shown-url.js";
import { jobLabel } from "../../src/session/job/label.js";
import { inspect } from "node:util";
import * as dfd from "danfojs-node";
import type { DataFrame, Series } from "danfojs-node";
import type { Blob } from "../../src/index.js";
import type { Job } from "../../src/index.js";
import type { Session } from "../../src/index.js";
import { didYouMean, isDataFrame } from "../../src/internal/index.js";
import { tableFromDataFrame } from "../../src/internal/index.js";
import type { Column, Table } from "../../src/index.js";
import type { CompletionContext } from "../commands/completion-context.js";
import type { Output } from "../commands/outputs.js";
import { isAbort, ReplError, SECOND_CTRL_C_MS, WaitStoppedError } from "../errors.js";
import { JsEvaluator } from "../eval/js-evaluator.js";
import { replSession } from "../eval/repl-session.js";
import { previewTable } from "../format/frame-preview.js";
import { checkFrameName, RESERVED_NAMES } from "./frame-names.js";
import { JobTracker, type TrackedJob } from "./job-tracker.js";
import { PipelineRuns } from "../commands/pipeline-runs.js";

export interface FrameInfo {
  /** Where it came from, for `/frames`: `sample data`, `customers.csv`, `j1 StandardScaler on customers`. */
  readonly origin: string;
  /** The frame a job's result was computed from, for before/after histograms. */
  readonly parent?: string | undefined;
  readonly job?: string | undefined;
  /** The columns the job transformed. */
  readonly features?: readonly string[] | undefined;
}

export interface TrackedBlob {
  /** Short name to type: `b1`, `b2`, ... */
  readonly ref: string;
  readonly blob: Blob;
  /** What it was made from. */
  readonly source: string;
}

/** What a job of this session ran on, for `/fetch` names and before/after histograms. */
export interface JobSource {
  readonly type: string;
  /** The frame name or blob ref typed. */
  readonly source: string;
  /** Set when the input was a frame. */
  readonly frame?: string | undefined;
  /** The feature columns asked for (undefined: every numeric column). */
  readonly features?: readonly string[] | undefined;
  /** The parameters given: those that are not the defaults name the job in /jobs. */
  readonly params?: Readonly<Record<string, unknown>> | undefined;
}

export interface WorkspaceOptions {
  readonly cwd?: string | undefined;
}

export class Workspace {
  readonly session: Session;
  readonly jobs = new JobTracker<Job>();
  /** Pipelines run by /pipeline (`p1`, `p2`, ...). */
  readonly pipelines = new PipelineRuns();
  readonly cwd: string;
  readonly #frames = new Map<string, { df: DataFrame; info: FrameInfo }>();
  readonly #blobs: TrackedBlob[] = [];
  /** The last blob ref's number: refs of deleted blobs are not reused. */
  #blobCounter = 0;
  readonly #jobSources = new Map<string, JobSource>();
  /** Plain uploads of a frame object, reused by later jobs on the same frame. */
  readonly #uploads = new WeakMap<DataFrame, Blob>();
  readonly #evaluator: JsEvaluator;
  readonly #stopWatchingSession: () => void;
  readonly #stopHearingNotices: () => void;
  readonly #notices: string[] = [];
  #lastStop: { readonly ref: string; readonly at: number } | undefined;

  constructor(session: Session, options: WorkspaceOptions = {}) {
    this.session = session;
    this.cwd = options.cwd ?? process.cwd();
    this.#evaluator = new JsEvaluator({ session: replSession(session, this.jobs), dfd }, { cwd: this.cwd });
    // Every job the session sends is tracked, whoever sent it: /preprocess, or
    // JavaScript (`await session.preprocess(...)`, `session.sendJob(...)`).
    this.#stopWatchingSession = session.onJob((job) => this.#trackSent(job));
    this.#stopHearingNotices = session.onNotice((notice) => this.#notices.push(notice));
  }

  /** The Session's notices since the last call (shown after the line that caused them). */
  takeNotices(): string[] {
    return this.#notices.splice(0);
  }

  /** Drops pending notices that say one of `texts`, which the line has shown already. */
  forgetNotices(texts: readonly string[]): void {
    const kept = this.#notices.filter((notice) => !texts.includes(notice));
    this.#notices.splice(0, this.#notices.length, ...kept);
  }

  /** One line saying what this session talks to. */
  describeTarget(): string {
    const where = this.session.isLocal
      ? `local service at ${shownUrl(this.session.baseUrl)}`
      : `service at ${shownUrl(this.session.baseUrl)}`;
    const data = this.session.dataDir ? `, data in ${this.session.dataDir}` : "";
    return `${where} (model ${this.session.modelId}${this.session.region ? `, region ${this.session.region}` : ""}${data})`;
  }

  frameNames(): string[] {
    return [...this.#frames.keys()];
  }

  hasFrame(name: string): boolean {
    return this.#frames.has(name);
  }

  frame(name: string): DataFrame {
    return this.#entry(name).df;
  }

  frameInfo(name: string): FrameInfo {
    return this.#entry(name).info;
  }

  setFrame(name: string, df: DataFrame, info: FrameInfo): void {
    checkFrameName(name);
    this.#frames.set(name, { df, info });
    this.#evaluator.set(name, df);
  }

  /** The frame as a columnar table (for describe, histograms, saving). */
  table(name: string): Table {
    return tableFromDataFrame(this.frame(name));
  }

  columnNames(name: string): string[] {
    const entry = this.#frames.get(name);
    return entry ? entry.df.columns : [];
  }

  /** Lists `blob` under the next `b` ref; a blob listed already keeps its ref and takes the new description. */
  addBlob(blob: Blob, source: string): TrackedBlob {
    const index = this.#blobs.findIndex((b) => b.blob.id === blob.id);
    const listed = this.#blobs[index];
    if (listed) {
      const updated = { ...listed, source };
      this.#blobs[index] = updated;
      return updated;
    }
    const tracked = { ref: `b${++this.#blobCounter}`, blob, source };
    this.#blobs.push(tracked);
    return tracked;
  }

  /**
   * Remembers that `df` is stored as `blob` (unencrypted, default format), so the next
   * job on the same frame does not upload it again. A frame changed in place by
   * JavaScript would go stale, which is why only jobs use this and `/upload` never does.
   */
  rememberUpload(df: DataFrame, blob: Blob): void {
    if (!blob.encrypted) this.#uploads.set(df, blob);
  }

  uploadOf(df: DataFrame): Blob | undefined {
    const blob = this.#uploads.get(df);
    return blob && !blob.deleted ? blob : undefined;
  }

  blobs(): readonly TrackedBlob[] {
    return this.#blobs;
  }

  /** Drops a deleted blob from the list (its ref is not reused). */
  forgetBlob(ref: string): void {
    const index = this.#blobs.findIndex((b) => b.ref === ref);
    if (index >= 0) this.#blobs.splice(index, 1);
  }

  /** By ref (`b1`), id, id prefix (4+ characters) or blob name. */
  findBlob(text: string): TrackedBlob | undefined {
    const key = text.trim();
    const exact = this.#blobs.find((b) => b.ref === key || b.blob.id === key || b.blob.name === key);
    if (exact || key.length < 4) return exact;
    const matches = this.#blobs.filter((b) => b.blob.id.startsWith(key.toLowerCase()));
    return matches.length === 1 ? matches[0] : undefined;
  }

  /**
   * Says what a job just sent by a command ran on. The session already reported the
   * job (it is tracked, with its short name), so this only names it better: the
   * job keeps its row, and is never tracked twice.
   */
  startJob(job: Job, source: JobSource): TrackedJob {
    // `PowerTransformer (method=box-cox) on cancer`: two jobs of one type read differently.
    const label = `${jobLabel(source.type, source.params ?? {})} on ${source.source}`;
    const known = this.jobs.find(job.id);
    const tracked = known ? this.jobs.relabel(known.ref, label) : this.jobs.track(job, label, job.record);
    this.#jobSources.set(tracked.ref, source);
    return tracked;
  }

  /**
   * What a command throws when Ctrl+C stopped it while it waited on job `ref`: a
   * WaitStoppedError when the job is still going, else the error itself. At the
   * interactive prompt the stop is remembered, so that a second Ctrl+C can cancel the
   * job (ReplController.cancel); piped mode has no second Ctrl+C, only /cancel.
   */
  waitStopped(error: unknown, ref: string, ctx: { readonly interactive: boolean }, what?: string): unknown {
    if (!isAbort(error)) return error;
    const job = this.jobs.find(ref);
    if (job === undefined || job.finishedAt !== undefined) return error;
    if (ctx.interactive) this.#lastStop = { ref, at: Date.now() };
    return new WaitStoppedError(ref, { what, secondCtrlC: ctx.interactive });
  }

  /** The job whose wait Ctrl+C stopped less than SECOND_CTRL_C_MS ago (once; then forgotten). */
  takeRecentStop(now = Date.now()): string | undefined {
    const stop = this.#lastStop;
    this.#lastStop = undefined;
    return stop !== undefined && now - stop.at <= SECOND_CTRL_C_MS ? stop.ref : undefined;
  }

  jobSource(ref: string): JobSource | undefined {
    return this.#jobSources.get(ref);
  }

  /** A job of this session by ref, id or id prefix; throws a hint listing them otherwise. */
  findJob(text: string): { job: TrackedJob; handle: Job } {
    const job = this.jobs.find(text);
    const handle = job && this.jobs.handle(job.ref);
    if (job === undefined || handle === undefined) {
      const refs = this.jobs.jobs.map((j) => j.ref);
      throw new ReplError(
        `No job "${text}" in this session.`,
        refs.length > 0
          ? `Jobs: ${refs.join(", ")} (or a job id). /jobs lists them.`
          : "Start one with /preprocess, or with session.preprocess(...) in JavaScript.",
      );
    }
    return { job, handle };
  }

  completion(commandNames: () => readonly string[]): CompletionContext {
    return {
      commandNames,
      frameNames: () => this.frameNames(),
      jobRefs: () => this.jobs.jobs.map((j) => j.ref),
      blobRefs: () => this.#blobs.map((b) => b.ref),
      columnNames: (frame) => this.columnNames(frame),
      numericColumnNames: (frame) => {
        const df = this.#frames.get(frame)?.df;
        // danfo's dtypes say it without reading the values (a Tab must stay instant).
        return df ? df.columns.filter((_, i) => /^(float|int)/.test(df.dtypes[i] ?? "")) : [];
      },
      jobType: (ref) => {
        const job = this.jobs.find(ref);
        return job && (this.#jobSources.get(job.ref)?.type ?? this.jobs.handle(job.ref)?.type);
      },
      pipelineRefs: () => this.pipelines.refs(),
      cwd: this.cwd,
    };
  }

  /** Names JavaScript can use: frames, session, dfd and the user's own variables. */
  jsNames(): string[] {
    return this.#evaluator.entries().map(([name]) => name);
  }

  /** Runs JavaScript; DataFrames it leaves in variables become named frames. */
  async evaluate(code: string, signal: AbortSignal, width: number): Promise<Output> {
    try {
      const { value, assigned } = await this.#evaluator.evaluate(code, signal);
      if (assigned !== undefined && !isFrame(value))
        return { type: "value", text: `${assigned} = ${show(value, width)}` };
      return valueOutput(value, width, assigned);
    } catch (error) {
      // Ctrl+C stops the wait for the promise, not the promise: it runs on.
      if (isAbort(error) && signal.aborted)
        throw new ReplError(
          "Stopped waiting for the JavaScript; it goes on in the background.",
          "What it does when it ends still happens (variables, jobs: /jobs lists them, /cancel <job> cancels one).",
        );
      throw error;
    } finally {
      this.#syncFrames();
    }
  }

  async close(): Promise<void> {
    this.#stopWatchingSession();
    this.#stopHearingNotices();
    this.jobs.close();
    await this.session.close();
  }

  /** A job the session reported: tracked at once, labelled with what is known of its input. */
  #trackSent(job: Job): void {
    if (this.jobs.find(job.id) !== undefined) return;
    const type = job.type ?? "job";
    const label = (input: string | undefined) => `${type}${input ? ` on ${input}` : ""} (JavaScript)`;
    let input = this.#inputName(job);
    const tracked = this.jobs.track(job, label(input), job.record);
    // A blob the job brought along (a DataFrame the session uploaded, or an upload made in
    // JavaScript) joins /blobs, so it can be reused, fetched or deleted like any other.
    // /preprocess describes its own inputs right after this.
    if (job.input !== undefined && !this.#blobs.some((b) => b.blob.id === job.input!.id)) {
      input = this.addBlob(job.input, `input of ${tracked.ref} (JavaScript)`).ref;
      this.jobs.relabel(tracked.ref, label(input));
    }
    this.#jobSources.set(tracked.ref, { type, source: input ?? "JavaScript" });
  }

  /** The input as a blob ref of this workspace (`b1`), else the input blob's name; a DataFrame's upload has no useful name. */
  #inputName(job: Job): string | undefined {
    const request = job.record?.request as { input_blob_id?: unknown } | undefined;
    const id = job.input?.id ?? (typeof request?.input_blob_id === "string" ? request.input_blob_id : undefined);
    const known = id === undefined ? undefined : this.#blobs.find((b) => b.blob.id === id);
    if (known) return known.ref;
    if (job.input === undefined) return undefined;
    return /^dataframe-\d{4}-/.test(job.input.name) ? undefined : job.input.name;
  }

  #entry(name: string): { df: DataFrame; info: FrameInfo } {
    const entry = this.#frames.get(name);
    if (entry === undefined) {
      const names = this.frameNames();
      throw new ReplError(
        `No frame "${name}"${didYouMean(name, names)}.`,
        names.length > 0
          ? `Frames: ${names.join(", ")}. /load reads a file into a new one.`
          : "/load reads a file into a frame.",
      );
    }
    return entry;
  }

  /** Variables holding DataFrames are frames; a frame whose variable was overwritten is gone. */
  #syncFrames(): void {
    const globals = new Map(this.#evaluator.entries());
    for (const [name, value] of globals) {
      if (!isFrame(value) || RESERVED_NAMES.has(name)) continue;
      if (this.#frames.get(name)?.df !== value) this.#frames.set(name, { df: value, info: { origin: "JavaScript" } });
    }
    for (const name of this.#frames.keys()) {
      if (!isFrame(globals.get(name))) this.#frames.delete(name);
    }
  }
}

/**
 * danfo's own methods (head, add, ...) build frames of its base class, not of
 * danfojs-node's subclass, so `instanceof` misses them: recognise them by shape.
 */
export function isFrame(value: unknown): value is DataFrame {
  return isDataFrame(value) && (value as { $isSeries?: unknown }).$isSeries !== true;
}

export function isSeries(value: unknown): value is Series {
  return isDataFrame(value) && (value as { $isSeries?: unknown }).$isSeries === true;
}

export function valueOutput(value: unknown, width: number, name?: string): Output {
  if (isFrame(value)) return previewTable(tableFromDataFrame(value), 10, name);
  if (isSeries(value)) return previewTable(seriesTable(value), 10, name);
  if (value === undefined) return { type: "none" };
  return { type: "value", text: show(value, width) };
}

function show(value: unknown, width: number): string {
  return inspect(value, { depth: 3, breakLength: Math.max(40, width), maxArrayLength: 20, maxStringLength: 2000 });
}

function seriesTable(series: Series): Table {
  // A Series' cells: strings, numbers and booleans, with null or undefined where missing.
  const values = series.values as (string | number | boolean | null | undefined)[];
  const name = (series as unknown as { columns?: string[] }).columns?.[0] ?? "value";
  const numeric = values.every((v) => typeof v === "number" || v === null || v === undefined);
  const column: Column = numeric
    ? { name, kind: "number", values: Float64Array.from(values, (v) => (typeof v === "number" ? v : NaN)) }
    : { name, kind: "string", values: values.map((v) => (v === null || v === undefined ? null : String(v))) };
  return { rowCount: values.length, columns: [column] };
}
