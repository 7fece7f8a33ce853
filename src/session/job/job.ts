import { inspect } from "node:util";
import type {
  JobExecutionLogMessage,
  JobRecord,
  JobResult,
  JobWarning,
  FittedStateJson,
} from "../../core/contract/job.js";
import type { PreprocessingType } from "../../core/contract/transform-types.js";
import { jobEndedError, MdpsError, UnsupportedExtensionError } from "../../client/errors.js";
import type { RecordType } from "../../core/contract/blob.js";
import { endingMessage, idFromUrl, readRecord, typeOfRecord } from "./record.js";
import type { JobFamily, ListOptions } from "../../client/jobs.js";
import { JobAddress } from "./address.js";
import { noFittedState, withFittedState } from "../fitted-reader.js";
import type { CallOptions } from "../../client/transport.js";
import type { Secret } from "../../client/secret.js";
import { Blob } from "../blob.js";
import type { SessionContext } from "../session-context.js";
import type { PreprocessOptions } from "../preprocess/options.js";
import { followLogMessages, type FollowOptions } from "./logs.js";
import type { WaitOptions } from "./polling.js";
import { followToEnd } from "./wait.js";
import type { RequestOptions } from "../request-options.js";
import { loadDanfo, outputShape, type DataFrame, type DecodeOptions, type FrameShape } from "../table-io.js";
import { Transformer } from "../transformer.js";
import { rerunRequest, type RerunOptions } from "./rerun.js";
import type { JobInit } from "./init.js";
import { arrowTableOf, writeBlobFile, type DownloadedFile } from "./columnar-output.js";
import { assertFrameFits, jobOutputInstead } from "../frame-size.js";
import type { Table as ArrowTable } from "apache-arrow";
import { RichValue } from "../presentation/rich-value.js";
import { presentation } from "../presentation/registry.js";
import type { ComparisonChart, ComparisonOptions } from "../presentation/views.js";

/** Which output, how long to wait for the job (`timeoutMs`) and for each download attempt (`requestTimeoutMs`). */
export type JobOutputOptions = WaitOptions &
  RequestOptions & {
    readonly output?: number | undefined;
    /** Overall limit of the download, ms; default two minutes plus a second per 256 KiB of the output. */
    readonly downloadDeadlineMs?: number | undefined;
  };

/** What a Job calls back into of the Session that made it (its context's `session`). */
export interface JobReach {
  /** Remembers a blob made in the session (a job's outputs, once read) for `session.blobs()` and the journal. */
  readonly track: (blob: Blob) => void;
  /** `session.blobs()`: where a rerun finds an input its handle does not hold. */
  readonly blobs: () => Blob[];
  /** `session.preprocess`: how a rerun is sent. */
  readonly preprocess: <T extends PreprocessingType>(input: Blob, options: PreprocessOptions<T>) => Promise<Job<T>>;
}

/**
 * A handle on one job. Nothing here blocks until asked: `status()` reads once,
 * `wait()` polls to the end, and `result()`, `dataframe()` and `transformer()` wait
 * first when the job is still running.
 *
 * @example
 * const job = await session.preprocess(df, { type: "StandardScaler" });
 * await job.wait({ onUpdate: (r) => console.log(r.status, r.phase, r.progress) });
 * const out = await job.dataframe();
 */
export class Job<T extends PreprocessingType = PreprocessingType> extends RichValue {
  readonly id: string;
  readonly type: T | undefined;
  /** The input blob, when the job was sent from this session. */
  readonly input: Blob | undefined;
  readonly #ctx: SessionContext<JobReach>;
  readonly #outputKeys: ReadonlyArray<Secret | undefined>;
  readonly #inputShape: FrameShape | undefined;
  readonly #outputRecordTypes: readonly RecordType[];
  readonly #featureColumns: readonly string[];
  readonly #address: JobAddress;
  readonly #params: Readonly<Record<string, unknown>>;
  /** Why the result's fitted state in the service's shape could not be read, if it could not. */
  #fittedProblem: string | undefined;
  #record: JobRecord | undefined;
  #result: JobResult | undefined;
  #outputs: Blob[] | undefined;

  constructor(ctx: SessionContext<JobReach>, id: string, init: JobInit<T> = {}) {
    super();
    this.#ctx = ctx;
    this.id = id;
    // A job listed by session.jobs() knows its transform from the record's request.
    this.type = init.type ?? (typeOfRecord(init.record) as T | undefined);
    this.input = init.input;
    this.#record = init.record && readRecord(init.record, ctx.statuses);
    this.#outputKeys = init.outputKeys ?? [];
    this.#inputShape = init.inputShape;
    this.#outputRecordTypes = init.outputRecordTypes ?? [];
    this.#featureColumns = init.featureColumns ?? [];
    this.#params = init.params ?? {};
    this.#address = new JobAddress(ctx.client, { family: init.endpoint, readBase: init.readBase }, ctx.profile);
  }

  /** The record as last seen (from send, status or wait); `status()` refreshes it. */
  get record(): JobRecord | undefined {
    return this.#record;
  }

  /** The fitted state, once the result was read (by wait, result or dataframe); undefined when the service returns none. */
  get fitted(): FittedStateJson | undefined {
    return this.#result?.fitted;
  }

  /**
   * scikit-learn 1.2.1's warnings on this job's data and parameters, once the result was
   * read (docs/warnings.md); empty when there were none or the service reports none.
   */
  get warnings(): readonly JobWarning[] {
    return this.#result?.warnings ?? [];
  }

  /** The job family its reads go to (the one it was sent to) and the base its send's `Location` named. */
  get place(): { readonly family: JobFamily; readonly readBase: string | undefined } {
    return { family: this.#address.family, readBase: this.#address.readBase };
  }

  /** Reads the job record now (GET .../{id}/get, on the job family it was sent to). */
  async status(options: ListOptions = {}): Promise<JobRecord> {
    this.#record = readRecord(await this.#address.call((r) => r.get(this.id, options)), this.#ctx.statuses);
    return this.#record;
  }

  /** The newest `limit` log messages, oldest first. */
  async logs(options: ListOptions = {}): Promise<JobExecutionLogMessage[]> {
    return (await this.#address.call((r) => r.logs(this.id, options))).messages;
  }

  /** Each log message once, as it appears, until the job has finished. */
  followLogs(options: FollowOptions = {}): AsyncIterable<JobExecutionLogMessage> {
    const vocabulary = this.#ctx.statuses;
    return followLogMessages(
      this.id,
      async (signal) => {
        const details = await this.#address.call((r) => r.logs(this.id, { signal }));
        // Logs that do not say the job's status (a bare list): ask the job itself.
        return details.status !== undefined ? details : { ...details, status: (await this.status({ signal })).status };
      },
      { isTerminal: (status) => vocabulary.isTerminal(status), ...options },
    );
  }

  /**
   * Cancels the job: a queued one never runs, a running one stops within a second and
   * leaves no output blob (POST .../{id}/cancel, on the API the job was sent on).
   * Resolves with the `cancelled` record; cancelling a cancelled job again is fine.
   * Waits on the job (here or elsewhere) reject with JobCancelledError. Throws
   * JobAlreadyEndedError (409, `jobStatus`) when it had already ended otherwise, and
   * UnsupportedExtensionError when the service does not offer cancel.
   *
   * @example
   * const job = await session.preprocess(df, { type: "QuantileTransformer" });
   * await job.cancel(); // job.record.status === "cancelled"
   */
  async cancel(options: CallOptions = {}): Promise<JobRecord> {
    try {
      this.#record = await this.#address.call((r) => r.cancel(this.id, options));
    } catch (error) {
      if (!(error instanceof UnsupportedExtensionError)) throw error;
      // Without cancel, say whether there is anything to stop: a finished job does not "go on running".
      const status = (await this.status({ signal: options.signal }).catch(() => undefined))?.status;
      if (status === undefined || !this.#ctx.statuses.isTerminal(status)) throw error;
      throw new UnsupportedExtensionError(
        "cancel",
        `${error.message.replace(/, so job \S+ goes on running\.$/, ";")} job ${this.id} already ended as ${status}, so there is nothing to stop.`,
        { cause: error },
      );
    }
    return this.#record;
  }

  /**
   * Polls until the job ends. Resolves with the final record when it succeeded (and
   * reads the result, so `fitted` is set); throws JobFailedError when it failed or timed
   * out, JobCancelledError (a JobFailedError) when it was cancelled, TimeoutError when
   * `timeoutMs` passed, AbortError on `signal` or a notebook kernel interrupt.
   */
  async wait(options: WaitOptions = {}): Promise<JobRecord> {
    const record = await presentation().followJob<JobRecord>({
      progress: options.progress,
      title: this.type,
      fetchLogs: (limit) => this.logs({ limit, signal: options.signal }),
      wait: async (onUpdate) => {
        const ended = await followToEnd({
          ctx: this.#ctx,
          id: this.id,
          address: this.#address,
          seen: this.#record,
          options,
          onRead: (r) => (this.#record = r),
          onUpdate,
        });
        if (ended.status === "succeeded") return ended;
        throw jobEndedError({
          jobId: this.id,
          status: ended.status,
          title: ended.error?.title ?? ended.status,
          detail: ended.error?.detail ?? endingMessage(ended) ?? (await this.#lastErrorLog()) ?? "no detail given",
          record: ended,
        });
      },
    });
    this.#result ??= presentation().displayableResult(
      this.#withFitted(
        await this.#address.call((r) =>
          // A service that returns the fitted state only on request is asked for it (`fittedQuery`).
          r.result(this.id, { signal: options.signal, query: this.#ctx.profile.fittedQuery }),
        ),
      ),
    );
    return record;
  }

  /** A service that says why a job failed only in its log (not its record): the last error line, if any. */
  async #lastErrorLog(): Promise<string | undefined> {
    const logs = await this.logs({ limit: 50 }).catch(() => []);
    return logs.findLast((l) => l.level === "error")?.message;
  }

  /** The before/after histograms of each feature (see docs/notebooks.md); waits first. */
  async compare(options: ComparisonOptions = {}): Promise<ComparisonChart> {
    return presentation().compareJob(this, options);
  }

  /** The same input, transform and columns sent again with `params` changed (./rerun.ts). */
  async rerun(options: RerunOptions<T> = {}): Promise<Job<T>> {
    const { session } = this.#ctx;
    const origin = { job: this, params: this.#params, featureColumns: this.#featureColumns };
    const again = await rerunRequest(origin, options, () => session.blobs());
    return session.preprocess(again.input, again.options);
  }

  /** Compact HTML for notebooks: transform, status, progress, timing; never a key. */
  toHTML(): string {
    return this.#record
      ? presentation().html.job(this.#record)
      : `<code>${this.toString().replace(/[<>&]/g, "")}</code>`;
  }

  /**
   * The job's result (rows, columns, output blob records, fitted state); waits first,
   * quietly unless `progress` says otherwise: called in a loop or for `dataframe()` and
   * the other reads, a live status per call would only clutter the cell, and as a cell's
   * value the result shows its own card. `wait()` and `watch()` show the live status.
   */
  async result(options: WaitOptions = {}): Promise<JobResult> {
    if (this.#result === undefined) await this.wait({ ...options, progress: options.progress ?? false });
    return this.#result!;
  }

  /** Handles on the output blobs, with their keys when encrypted here. */
  async outputs(options: WaitOptions = {}): Promise<Blob[]> {
    const result = await this.result(options);
    // Blob records when the service gives them; else blob ids, else download URLs.
    const shape = outputShape(this.#inputShape, this.#features(result));
    const handle = (record: { id: string }, i: number, downloadUrl?: string) =>
      new Blob(this.#ctx, { tags: [], ...record }, this.#outputKeys[i], shape, {
        recordType: this.#outputRecordTypes[i],
        downloadUrl,
      });
    this.#outputs ??= (
      result.outputs?.map((record, i) => handle(record, i)) ??
      result.output_blob_ids?.map((id, i) => handle({ id }, i)) ??
      result.download_urls?.map((url, i) => handle({ id: idFromUrl(url, i) }, i, url)) ??
      []
    ).map((blob) => {
      this.#ctx.session.track(blob);
      return blob;
    });
    return [...this.#outputs];
  }

  /**
   * Output `output` (default the first) as a DataFrame: the input's column order,
   * feature columns transformed, passthrough columns with the input's dtypes. Waits
   * first: `timeoutMs` limits the wait, `requestTimeoutMs` each attempt of the download.
   * Throws FrameTooLargeError, before downloading, when the frame would not fit the
   * JavaScript heap: `table()` and `download(path)` read it without a DataFrame.
   */
  async dataframe(options: JobOutputOptions & DecodeOptions = {}): Promise<DataFrame> {
    const blob = await this.#output(options);
    const result = this.#result!;
    const what = `Job ${this.id}'s output ${(options.output ?? 0) + 1}`;
    const instead = jobOutputInstead(this.id);
    // The result says the size: refuse before a byte is downloaded.
    if (result.rows !== undefined && result.columns !== undefined) {
      assertFrameFits({ rows: result.rows, columns: result.columns.length }, what, instead);
    }
    // From a DataFrame, the input's dtypes say what each column is: read only the
    // features as numbers and restore the rest. From a file, infer as any reader would.
    const numericColumns = this.#inputShape ? this.#features(result) : undefined;
    // `timeoutMs` limited the wait; the download's attempts take `requestTimeoutMs`.
    return blob.download({ numericColumns, ...options, timeoutMs: options.requestTimeoutMs }, { what, instead });
  }

  /**
   * Output `output` (default the first) as an Apache Arrow Table, for outputs that should
   * not become a DataFrame: columnar, 8 bytes a number, outside the JavaScript heap. Waits first.
   *
   * @example
   * const table = await job.table();
   * table.numRows; table.getChild("x1")?.toArray(); // a Float64Array
   */
  async table(options: JobOutputOptions = {}): Promise<ArrowTable> {
    const blob = await this.#output(options);
    return arrowTableOf(blob, { signal: options.signal, timeoutMs: options.requestTimeoutMs });
  }

  /**
   * Writes output `output` (default the first) to `path` in the format its extension
   * names (.csv, .json, .arrow/.feather, and .parquet where the Session writes Parquet),
   * without a DataFrame; an output already in that format is copied as it streams in.
   * The file appears whole or not at all. Waits first.
   *
   * @example
   * await job.download("scaled.arrow"); // { path, recordType: "arrow", bytes, copied: true }
   */
  async download(path: string, options: JobOutputOptions = {}): Promise<DownloadedFile> {
    const blob = await this.#output(options);
    return writeBlobFile(blob, path, {
      signal: options.signal,
      timeoutMs: options.requestTimeoutMs,
      deadlineMs: options.downloadDeadlineMs,
    });
  }

  async #output(options: JobOutputOptions): Promise<Blob> {
    const outputs = await this.outputs(options);
    const blob = outputs[options.output ?? 0];
    if (blob === undefined)
      throw new RangeError(`Job ${this.id} has ${outputs.length} output(s); there is no output ${options.output}.`);
    return blob;
  }

  /** The fitted transform, to apply to new data here with the same engine; waits first. */
  async transformer(options: WaitOptions = {}): Promise<Transformer> {
    const [result, danfo] = await Promise.all([this.result(options), loadDanfo()]);
    if (result.fitted === undefined)
      throw new MdpsError("no_fitted_state", noFittedState(this.id, this.#fittedProblem));
    return new Transformer(result.fitted, danfo);
  }

  /** The result with its fitted state read from the service's own shape, when it has one in no other. */
  #withFitted(result: JobResult): JobResult {
    const features = result.feature_columns ?? this.#featureColumns;
    const names = this.#ctx.profile.fittedNames;
    const read = withFittedState(result, { type: this.type, params: this.#params, featureColumns: features, names });
    this.#fittedProblem = read.problem;
    return read.result;
  }

  /** The feature columns: as the result lists them, else as fitted, else as asked for. */
  #features(result: JobResult): readonly string[] {
    return result.feature_columns ?? result.fitted?.feature_names_in_ ?? this.#featureColumns;
  }

  toJSON(): Record<string, unknown> {
    const r = this.#record;
    return {
      id: this.id,
      type: this.type,
      status: r?.status,
      phase: r?.phase,
      progress: r?.progress,
      error: r?.error ?? undefined,
    };
  }

  toString(): string {
    return `Job(${this.id}${this.#record ? `, ${this.#record.status}` : ""})`;
  }

  protected override inspectedText(): string {
    return `Job ${inspect(this.toJSON())}`;
  }
}
