import { inspect } from "node:util";
import { shownUrl } from "../core/errors/shown-url.js";
import type { BlobRecord, RecordType } from "../core/contract/blob.js";
import type { BlobListOptions, JobListOptions } from "../core/contract/listing.js";
import { JobStatusVocabulary } from "../core/contract/job-status.js";
import type { Health } from "../core/contract/health.js";
import type { PreprocessingType } from "../core/contract/transform-types.js";
import type { MdpsClient } from "../client/client.js";
import { mergeServiceSettings } from "../client/vendor/service-settings.js";
import { ConfigError } from "../client/errors.js";
import type { CallOptions } from "../client/transport.js";
import { Blob, type UploadOptions } from "./blob.js";
import { Job } from "./job/job.js";
import { reloadCredentials, type CredentialsReload } from "./credentials-reload.js";
import type { DoctorReport, WhoAmI } from "../client/diagnostics.js";
import { sessionDoctor, sessionWhoami, type Rendered } from "./diagnostics.js";
import { RichValue } from "./presentation/rich-value.js";
import { presentation } from "./presentation/registry.js";
import { PortalLink } from "./portal-link.js";
import type { PreprocessOptions } from "./preprocess/options.js";
import { assertEnvelope } from "./preprocess/plan.js";
import { sendJob, sendPreprocessing, type SendJobOptions } from "./preprocess/send.js";
import type { Uploadable } from "./table-io.js";
import { CheckReport } from "./preflight/check-report.js";
import { preflight, type PreflightOptions } from "./preflight/preflight.js";
import { prepareUpload, PreparedUpload, readsAsIs, type ReadOptions } from "./prepared-input.js";
import { Pipeline } from "./pipeline/pipeline.js";
import type { AnyPipelineStep } from "./pipeline/steps.js";
import { ServiceProfile } from "../client/vendor/service-profile.js";
import type { Journal, SentJob } from "./journal.js";
import { SessionEvents, type SessionJobListener, type SessionNoticeListener } from "./session-events.js";
import { blobById } from "./blob-by-id.js";
import { allPages, knownBlobRecords, knownBlobs, knownJob, knownJobs } from "./listings.js";
import type { SessionContext } from "./session-context.js";
import type { SessionReach } from "./session-reach.js";
import { openConnected, openLocal, type ConnectOptions, type LocalOptions, type SessionParts } from "./session-open.js";

export type { ConnectOptions, LocalOptions, SessionOptions } from "./session-open.js";
export type { SendJobOptions } from "./preprocess/send.js";

export type { SessionJobListener, SessionNoticeListener } from "./session-events.js";

/**
 * One connection to a preprocessing service: uploads, jobs, results as danfo
 * DataFrames. `Session.local()` runs the reference service in this process;
 * `Session.connect()` talks to a configured one.
 *
 * @example
 * const session = await Session.local();
 * const job = await session.preprocess("data.csv", { type: "StandardScaler" });
 * const scaled = await job.dataframe();
 * await session.close();
 */
export class Session extends RichValue {
  readonly client: MdpsClient;
  readonly wireFormat: RecordType;
  /** What this session assumes of its service: declared capabilities, settings, defaults. */
  readonly profile: ServiceProfile;
  /** The region the service reported, when health was read. */
  readonly region: string | undefined;
  readonly #local: SessionParts["local"];
  readonly #blobs: Blob[] = [];
  /** Jobs this session sent, oldest first (for `jobs()` on a service without `job-list`). */
  readonly #jobs: Job[] = [];
  /** What this session hands the handles and helpers it makes. */
  readonly #ctx: SessionContext<SessionReach>;
  readonly #events = new SessionEvents();
  #closed = false;
  /** Where this session records its jobs and blobs; none for a local session (its service lists them). */
  readonly #journal: Journal | undefined;
  /** What `connect` resolved its settings from, to resolve them again (`reloadCredentials`). */
  readonly #connectOptions: ConnectOptions | undefined;

  private constructor({ client, options, profile, region, local, journal, connectOptions }: SessionParts) {
    super();
    this.client = client;
    this.#journal = journal;
    this.#connectOptions = connectOptions;
    this.profile = profile;
    this.wireFormat = this.profile.wireFormat;
    this.region = region;
    this.#local = local;
    // Polling the in-process service costs about a millisecond: poll it more often.
    this.#ctx = {
      client,
      wireFormat: this.wireFormat,
      profile: this.profile,
      pollIntervalMs: local ? 200 : 1000,
      statuses: new JobStatusVocabulary(options),
      // Parquet only where the service declares it; other files are sent as they are.
      reads: (recordType) => readsAsIs(recordType, (c) => this.profile.declares(c)),
      notify: (message) => this.#events.notify(message),
      forget: (blobId) => this.#journal?.recordBlobDeleted(blobId),
      session: {
        track: (blob) => {
          if (!this.#blobs.some((b) => b.id === blob.id)) this.#blobs.push(blob);
          this.#journal?.recordBlob(blob.record);
        },
        blobs: () => this.blobs(),
        preprocess: (input, preprocessOptions) => this.preprocess(input, preprocessOptions),
        upload: (data, uploadOptions) => this.upload(data, uploadOptions),
        sent: (job, sent) => this.#sent(job, sent),
        ownBlobs: this.#blobs,
        ownJobs: this.#jobs,
        earlierBlobs: new Map(),
        journal,
      },
    };
  }

  /**
   * Connects to a configured service. Settings come from `options`, then the
   * MDPS_* environment variables, then a config file profile (see docs/session.md).
   * Reads health to check credentials and, when `region` / MDPS_REGION is set, that
   * the service is in that region.
   */
  static async connect(options: ConnectOptions = {}): Promise<Session> {
    return new Session(await openConnected(options));
  }

  /**
   * Starts the reference service in this process (127.0.0.1, a free port) on a
   * persistent data dir (`dataDir`, default `$MDPS_HOME/local` or `~/.mdps/local`),
   * with its own model and application: no credentials needed. `close()` stops it.
   */
  static async local(options: LocalOptions = {}): Promise<Session> {
    return new Session(await openLocal(options));
  }

  get modelId(): string {
    return this.client.modelId;
  }
  get baseUrl(): string {
    return this.client.config.baseUrl;
  }
  get isLocal(): boolean {
    return this.#local !== undefined;
  }
  /** The data dir of a local session. */
  get dataDir(): string | undefined {
    return this.#local?.dataDir;
  }

  /**
   * Picks up a regenerated secret: the settings are resolved again as `connect` resolved
   * them (options, then MDPS_* variables, then the config-file profile, e.g. as rewritten
   * by `mdps configure`) and the token is asked for anew; the service's words too. Jobs,
   * blobs and handles go on working; only the client id, secret and scopes may change.
   *
   * @example
   * // after `mdps configure --profile uk1` with the new secret:
   * await session.reloadCredentials();
   */
  async reloadCredentials(): Promise<CredentialsReload> {
    if (this.#connectOptions === undefined) {
      throw new ConfigError(
        "Session.local() keeps its own application's credentials: there is nothing to reload. " +
          "reloadCredentials() is for sessions opened with Session.connect().",
      );
    }
    const reload = await reloadCredentials(this.client, this.#connectOptions);
    this.profile.useWords(mergeServiceSettings(this.#connectOptions, this.client.config.service));
    return reload;
  }

  async health(options: CallOptions = {}): Promise<Health> {
    return this.client.health.get(options);
  }

  /**
   * Who this session is at the service: the configured addresses and region, the token's
   * client, model, scopes and expiry, and per endpoint of the interface whether the scopes
   * allow it. Asks for a fresh token to read them; shows neither token nor secret.
   */
  async whoami(): Promise<Rendered<WhoAmI>> {
    return sessionWhoami(this.client, this.region);
  }

  /**
   * Checks that each address answers, that a token can be had, that health's region is the
   * configured one and that the scopes cover the workflow; a remedy for each failing line.
   * `probe: true` also uploads a one-row CSV with the record type and access tier words
   * and deletes it where the token may: whether the service takes them.
   */
  async doctor(options: { readonly probe?: boolean | undefined } = {}): Promise<Rendered<DoctorReport>> {
    return sessionDoctor(this.client, options);
  }

  /**
   * Uploads a DataFrame (encoded as the session's wire format unless `recordType`
   * says otherwise), a file (record type from its extension) or bytes (sent as they
   * are). A CSV file is read as pandas.read_csv reads it; when it is not the contract's
   * CSV (another separator, missing values spelt `NA`, short rows) a normalised copy
   * is uploaded and a notice says so (`onNotice`).
   */
  async upload(data: Uploadable | PreparedUpload, options: UploadOptions = {}): Promise<Blob> {
    assertEnvelope(this, [options.encrypt]);
    // Bytes go exactly as given; a file or DataFrame is read first (./prepared-input.ts).
    const prepared =
      data instanceof Uint8Array
        ? data
        : await prepareUpload(data, options.recordType, this.wireFormat, options, this.#ctx.reads);
    if (prepared instanceof PreparedUpload && prepared.notice !== undefined) this.#events.notify(prepared.notice);
    const blob = await Blob.upload(this.#ctx, prepared, options);
    this.#ctx.session.track(blob);
    return blob;
  }

  /** A handle on blob `id` on the service, uploaded here or by other means (./blob-by-id.ts). */
  async blob(id: string, options: CallOptions = {}): Promise<Blob> {
    return blobById(this.#ctx, id, options);
  }

  /** Blobs made in this session, oldest first: uploads, and job outputs once read (deleted ones left out). */
  blobs(): Blob[] {
    return knownBlobs(this.#ctx);
  }

  /**
   * The model's blob records from the service, newest first, every page (or the newest
   * `limit`), when it declares `blob-list` (docs/contract.md#extensions); else the records of
   * `blobs()` (this session's and the journal's), newest first. `tag` and `name` filter
   * exactly.
   */
  async modelBlobs(options: BlobListOptions & CallOptions = {}): Promise<BlobRecord[]> {
    if (!this.profile.declares("blob-list")) return knownBlobRecords(this.#ctx, options);
    const { limit, cursor, ...filters } = options;
    return allPages((page) => this.client.blobs.list({ ...filters, ...page }), { limit, cursor });
  }

  /**
   * The model's jobs from the service, newest first, every page (or the newest `limit`),
   * when it declares `job-list` (docs/contract.md#extensions); else the jobs this session sent
   * and, from the journal, those earlier sessions sent, newest first, each with its
   * status read once. `status` filters exactly. The records carry no events.
   */
  async jobs(options: JobListOptions & CallOptions = {}): Promise<Job[]> {
    if (!this.profile.declares("job-list")) return knownJobs(this.#ctx, options);
    const { limit, cursor, ...filters } = options;
    const records = await allPages((page) => this.client.jobs.list({ ...filters, ...page }), { limit, cursor });
    return records.map((record) => new Job(this.#ctx, record.id, { record }));
  }

  /**
   * A fresh one-time login link to the portal (docs/contract.md#application-portal), for a
   * `Session.local()` session; it dies with the session. A connected session's portal link
   * comes from the service's operator (`mdps admin portal-link`).
   */
  portalUrl(): string {
    if (!this.#local) {
      throw new ConfigError(
        `This session is connected to ${this.baseUrl}, so it cannot make a portal link: the portal link comes from the service's operator (\`mdps admin portal-link --data-dir <dir>\` on the service's machine). Session.local() sessions have portalUrl().`,
      );
    }
    return this.#local.notebookLink();
  }

  /** portalUrl()'s link as a notebook shows it: a link ("Open the portal"), not the URL as text. */
  portalLink(): PortalLink {
    return new PortalLink(this.portalUrl());
  }

  /**
   * Uploads `input` if needed and sends a preprocessing job. Resolves once the job
   * is accepted (queued), with its handle: `await job.wait()` or `await job.dataframe()`.
   * `params` are checked per `type` at compile time and before anything is sent.
   */
  async preprocess<T extends PreprocessingType>(
    input: Uploadable | Blob,
    options: PreprocessOptions<T>,
  ): Promise<Job<T>> {
    return sendPreprocessing(this.#ctx, input, options);
  }

  /**
   * Steps to fit as a chain of jobs, each on the previous job's output (docs/session.md#pipelines).
   * Transform names and params are checked now; `await pipeline.fit(df)` runs it.
   *
   * @example
   * const fitted = await session.pipeline([{ type: "PowerTransformer" }, { type: "StandardScaler" }]).fit(df);
   */
  pipeline(steps: readonly AnyPipelineStep[]): Pipeline {
    return new Pipeline(this.#ctx, steps);
  }

  /** POST /api/job/send with a caller-chosen id (generated when absent): idempotent. */
  async sendJob(options: SendJobOptions): Promise<Job> {
    return sendJob(this.#ctx, options);
  }

  /** Records a sent job in the journal and announces it. */
  #sent<J extends Job>(job: J, sent: SentJob): J {
    this.#journal?.recordSent(sent);
    this.#jobs.push(job);
    this.#events.announce(job);
    return job;
  }

  /**
   * Calls `listener` with every job this session sends (`preprocess`, `sendJob`) once the
   * service accepted it, before the call resolves; returns a function that unsubscribes.
   * `job(id)` is not reported (it makes no job). A listener that throws does not fail the
   * call; its error is reported as a process warning.
   *
   * @example
   * const stop = session.onJob((job) => console.log("sent", job.type, job.id));
   */
  onJob(listener: SessionJobListener): () => void {
    return this.#events.onJob(listener);
  }

  /**
   * A handle on an existing job (e.g. from an earlier run), by id or by a unique prefix of
   * at least 4 characters of the id of a job this session sent or its journal remembers
   * (./job/lookup.ts). Not reported to `onJob` listeners. Its reads go to the job family
   * the journal says it was sent to; a job the journal does not know is read through
   * /api/job, and on a 404 through the other family.
   */
  job(idOrPrefix: string): Job {
    return knownJob(this.#ctx, idOrPrefix);
  }

  /**
   * The pre-flight report of `input` for a job with `options`, read on this machine:
   * per column dtype, missing count, constant, id-like, min/max, and the warnings and
   * problems the job would meet. Nothing is uploaded.
   *
   * @example
   * const report = await session.check(df, { type: "QuantileTransformer", columns: ["proline"] });
   * report.problems; // [] when session.preprocess would send the job
   */
  async check(
    input: Uploadable,
    options: PreflightOptions & ReadOptions & { readonly recordType?: RecordType | undefined } = {},
  ): Promise<CheckReport> {
    const prepared = await prepareUpload(input, options.recordType, this.wireFormat, options, this.#ctx.reads);
    return new CheckReport(preflight(await prepared.table(), options));
  }

  /**
   * Calls `listener` with each notice this session gives in one line: a file uploaded
   * as a normalised copy, a warning of the pre-flight checks. Without listeners they go
   * to `process.emitWarning` (type MdpsWarning). Returns a function that unsubscribes.
   */
  onNotice(listener: SessionNoticeListener): () => void {
    return this.#events.onNotice(listener);
  }

  /** Closes connections; a local session also stops its service. Safe to call twice. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.client.close();
    await this.#local?.close();
  }

  toJSON(): Record<string, unknown> {
    return {
      baseUrl: shownUrl(this.baseUrl),
      region: this.region,
      modelId: this.modelId,
      local: this.isLocal,
      dataDir: this.dataDir,
      wireFormat: this.wireFormat,
      blobs: this.#blobs.length,
      closed: this.#closed,
    };
  }

  toString(): string {
    return `Session(${this.isLocal ? "local " : ""}${shownUrl(this.baseUrl)}, model ${this.modelId})`;
  }

  /** Compact HTML for notebooks: service, region, model, data dir; never a secret. */
  toHTML(): string {
    return presentation().html.session({
      baseUrl: shownUrl(this.baseUrl),
      modelId: this.modelId,
      region: this.region ?? null,
      local: this.isLocal,
      dataDir: this.dataDir ?? null,
    });
  }

  protected override inspectedText(): string {
    return `Session ${inspect(this.toJSON())}`;
  }
}
