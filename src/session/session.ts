import { randomUUID } from "node:crypto";
import { shownUrl } from "../errors/shown-url.js";
import { inspect } from "node:util";
import { blobRecord, type BlobRecord, type RecordType } from "../contract/blob.js";
import type { BlobListOptions, JobListOptions } from "../contract/listing.js";
import { JobStatusVocabulary, type JobStatusVocabularyOptions } from "../contract/job-status.js";
import { uuid } from "../contract/common.js";
import type { Health } from "../contract/health.js";
import type { CreatePreprocessingRequest, JobRecord } from "../contract/job.js";
import type { PreprocessingType } from "../contract/transform-types.js";
import { MdpsClient, type ClientOptions } from "../client/client.js";
import { resolveConfig, type ClientConfig } from "../client/config.js";
import { mergeServiceSettings, type ServiceSettings } from "../client/service-settings.js";
import {
  APIError,
  ConfigError,
  ConnectionError,
  OAuthError,
  PermissionDeniedError,
  SendOutcomeUnknownError,
  TimeoutError,
} from "../client/errors.js";
import type { TransportOptions, CallOptions } from "../client/transport.js";
import { Blob, keyOf, type SessionContext, type UploadOptions } from "./blob.js";
import { Job } from "./job.js";
import { journaledJob, resolveJobId } from "./job-lookup.js";
import { readBaseOf } from "../client/jobs.js";
import { reloadCredentials, type CredentialsReload } from "./credentials-reload.js";
import { AUTO_INPUT_TAG } from "./auto-inputs.js";
import type { DoctorReport, WhoAmI } from "../client/diagnostics.js";
import { sessionDoctor, sessionWhoami, type Rendered } from "./diagnostics.js";
import { JUPYTER_DISPLAY, inspectRich, jupyterBundle, type MimeBundle } from "../notebook/rich-inspect.js";
import { PortalLink } from "../notebook/portal-link.js";
import { sessionHtml } from "../notebook/render-records.js";
import { startLocalService, type LocalService, type LocalServiceOptions } from "./local-service.js";
import { localValidationError } from "./local-validation.js";
import { keepLocalToken } from "./local-token.js";
import {
  buildPreprocessingRequest,
  checkPreprocessOptions,
  requestTimeoutOf,
  type PreprocessOptions,
} from "./preprocess-request.js";
import type { FrameShape, Uploadable } from "./table-io.js";
import { checkParams } from "../contract/param-issues.js";
import { CheckReport } from "./check-report.js";
import { showNotice } from "../notebook/notice.js";
import { preprocessOutputFormat, type OutputFormat } from "./format-cost.js";
import { PreflightError } from "./preflight-error.js";
import { assertPreflight, preflight, type PreflightOptions } from "./preflight.js";
import { prepareUpload, PreparedUpload, type ReadOptions } from "./prepared-input.js";
import { Pipeline } from "./pipeline.js";
import type { AnyPipelineStep } from "./pipeline-steps.js";
import { ServiceProfile } from "./service-profile.js";
import { configDirOf, Journal, journalPath, type JournalBlob } from "./journal.js";

/** Hears the Session's one-line notices (a normalised upload, an id-like column transformed). */
export type SessionNoticeListener = (message: string) => void;

/**
 * What the Session may assume of the service (./service-profile.ts): `wireFormat`
 * (default `arrow` where the service declares it, else `csv`), `capabilities` to rely
 * on beyond those declared, and the service's words for record types and access tiers.
 */
export interface SessionOptions extends JobStatusVocabularyOptions, ServiceSettings {}

export interface ConnectOptions extends ClientOptions, SessionOptions {
  /** Check the service's health (and region) while connecting. Default true. */
  readonly verify?: boolean | undefined;
  /**
   * The client journal (./journal.ts): where this session records the jobs and blobs it
   * makes, so `jobs()`, `blobs()` and `modelBlobs()` find them after a restart. Default
   * `<config dir>/journal/<service>.jsonl` (none with `configFile: false`); a path to
   * choose the file; `false` for none.
   */
  readonly journal?: boolean | string | undefined;
}

interface SessionParts {
  readonly client: MdpsClient;
  readonly options: SessionOptions;
  readonly region: string | undefined;
  readonly local?: LocalService | undefined;
  /** Health's capabilities; undefined when health was not read. */
  readonly capabilities?: readonly string[] | undefined;
  readonly journal?: Journal | undefined;
}

export interface LocalOptions extends LocalServiceOptions, SessionOptions, TransportOptions {}

/** Hears about each job this session creates (see `Session.onJob`). */
export type SessionJobListener = (job: Job) => void;

export interface SendJobOptions extends CallOptions {
  /** Your own job id (UUID); sending it again with the same body returns the same job. */
  readonly jobId?: string | undefined;
  readonly type: "preprocessing";
  /** A CreatePreprocessingRequest; `model_id` defaults to the session's model. */
  readonly payload: Omit<CreatePreprocessingRequest, "model_id"> & { model_id?: string };
}

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
export class Session {
  readonly client: MdpsClient;
  readonly wireFormat: RecordType;
  /** What this session assumes of its service: declared capabilities, settings, defaults. */
  readonly profile: ServiceProfile;
  /** The region the service reported, when health was read. */
  readonly region: string | undefined;
  readonly #local: LocalService | undefined;
  readonly #blobs: Blob[] = [];
  /** Jobs this session sent, oldest first (for `jobs()` on a service without `job-list`). */
  readonly #jobs: Job[] = [];
  readonly #ctx: SessionContext;
  readonly #jobListeners = new Set<SessionJobListener>();
  readonly #noticeListeners = new Set<SessionNoticeListener>();
  /** Health's `capabilities` when read; undefined: not read, so only the interface is used. */
  readonly #capabilities: readonly string[] | undefined;
  #closed = false;
  /** Handles on blobs the journal remembers from earlier sessions. */
  readonly #earlierBlobs = new Map<string, Blob>();
  /** Where this session records its jobs and blobs; none for a local session (its service lists them). */
  readonly #journal: Journal | undefined;
  /** What `connect` resolved its settings from, to resolve them again (`reloadCredentials`). */
  #connectOptions: ConnectOptions | undefined;

  private constructor({ client, options, region, local, capabilities, journal }: SessionParts) {
    this.client = client;
    this.#journal = journal;
    this.#capabilities = local ? local.capabilities : capabilities;
    this.profile = new ServiceProfile({
      declared: this.#capabilities,
      settings: mergeServiceSettings(options, client.config.service),
    });
    this.wireFormat = this.profile.wireFormat;
    this.region = region;
    this.#local = local;
    // Polling the in-process service costs about a millisecond: poll it more often.
    this.#ctx = {
      client,
      wireFormat: this.wireFormat,
      profile: this.profile,
      pollIntervalMs: local ? 200 : 1000,
      track: (blob) => {
        if (!this.#blobs.some((b) => b.id === blob.id)) this.#blobs.push(blob);
        this.#journal?.recordBlob(blob.record);
      },
      forget: (blob) => this.#journal?.recordBlobDeleted(blob.id),
      statuses: new JobStatusVocabulary(options),
      // Health as read at connect; not read (verify: false): asked once, when first needed.
      declares: async (extension) =>
        this.#capabilities === undefined
          ? (await client.capabilities.check(extension)) === "declared"
          : this.#declares(extension),
      sender: this,
    };
  }

  /**
   * Connects to a configured service. Settings come from `options`, then the
   * MDPS_* environment variables, then a config file profile (see docs/session.md).
   * Reads health to check credentials and, when `region` / MDPS_REGION is set, that
   * the service is in that region.
   */
  static async connect(options: ConnectOptions = {}): Promise<Session> {
    const config = resolveConfig(options);
    const client = new MdpsClient(config, options);
    let region: string | undefined;
    let capabilities: readonly string[] | undefined;
    if (options.verify !== false) {
      try {
        const health = await client.health.get();
        region = health.region;
        capabilities = health.capabilities ?? [];
      } catch (error) {
        if (!(error instanceof PermissionDeniedError) || config.region !== undefined) {
          await client.close();
          if (error instanceof PermissionDeniedError) {
            throw new ConfigError(
              `Cannot check that the service is in region ${config.region}: it refused the health check with 403` +
                `${error.detail ? ` ("${error.detail}")` : ""}. The token was asked for ${client.auth.requestedScopes.join(" ")}; ` +
                `mdps assumes health needs shared.health.read (the interface does not say). Give the application the scope ` +
                `the service names, or unset MDPS_REGION to skip the check.`,
              [],
              { cause: error },
            );
          }
          throw error;
        }
      }
      if (config.region !== undefined && region !== undefined && region !== config.region) {
        await client.close();
        throw new ConfigError(
          `Region mismatch: MDPS_REGION (or the region option) is "${config.region}" but the service at ${config.baseUrl} ` +
            `reports region "${region}". The portal, authentication API and model API must be of one region: ` +
            `fix MDPS_BASE_URL / MDPS_AUTH_URL or MDPS_REGION.`,
        );
      }
    }
    const session = new Session({ client, options, region, capabilities, journal: openJournal(options, config) });
    session.#connectOptions = options;
    return session;
  }

  /**
   * Starts the reference service in this process (127.0.0.1, a free port) on a
   * persistent data dir (`dataDir`, default `$MDPS_HOME/local` or `~/.mdps/local`),
   * with its own model and application: no credentials needed. `close()` stops it.
   */
  static async local(options: LocalOptions = {}): Promise<Session> {
    const local = await startLocalService(options);
    try {
      let client = clientFor(local, local.credentials, options);
      // A token kept by an earlier run skips the exchange (./local-token.ts); one read checks the service knows it.
      const kept = keepLocalToken(client, local.dataDir);
      try {
        if (kept) await client.health.get();
        else await client.tokens.get();
      } catch (error) {
        // The credentials file outlived its database (reset, copied dir): make new ones.
        if (!(error instanceof OAuthError && error.code === "invalid_client")) throw error;
        await client.close();
        client = clientFor(local, local.renewCredentials(), options);
        keepLocalToken(client, local.dataDir);
      }
      return new Session({ client, options, region: local.service.region, local });
    } catch (error) {
      await local.service.close();
      throw error;
    }
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
   * by `mdps configure`), the cached token is dropped and a new one is asked for with them.
   * Jobs, blobs and earlier `Job` handles go on working. Only the client id, secret and
   * scopes may change; the service and model stay.
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
    // The record type and access tier words are read again too (options still win).
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
    this.#assertEnvelope(options);
    // Bytes go exactly as given; a file or DataFrame is read first (./prepared-input.ts).
    const prepared =
      data instanceof Uint8Array
        ? data
        : await prepareUpload(data, options.recordType, this.wireFormat, options, this.#reads);
    if (prepared instanceof PreparedUpload && prepared.notice !== undefined) this.#notify(prepared.notice);
    const blob = await Blob.upload(this.#ctx, prepared, options);
    this.#ctx.track(blob);
    return blob;
  }

  /** Blobs made in this session, oldest first: uploads, and job outputs once read (deleted ones left out). */
  blobs(): Blob[] {
    const own = this.#blobs.filter((b) => !b.deleted);
    const ownIds = new Set(this.#blobs.map((b) => b.id));
    const earlier = (this.#journal?.blobs() ?? [])
      .filter((r) => !ownIds.has(r.id))
      .reverse()
      .map((r) => this.#journaledBlob(r))
      .filter((b) => !b.deleted);
    return [...earlier, ...own];
  }

  /** One handle per journaled blob, made when first listed. */
  #journaledBlob(entry: JournalBlob): Blob {
    let blob = this.#earlierBlobs.get(entry.id);
    if (blob === undefined) {
      blob = new Blob(this.#ctx, blobRecord.parse(entry));
      this.#earlierBlobs.set(entry.id, blob);
    }
    return blob;
  }

  /**
   * The model's blob records from the service, newest first, every page (or the newest
   * `limit`), when it declares `blob-list` (docs/contract.md#extensions); else the records of
   * `blobs()` (this session's and the journal's), newest first. `tag` and `name` filter
   * exactly.
   */
  async modelBlobs(options: BlobListOptions & CallOptions = {}): Promise<BlobRecord[]> {
    if (!this.#declares("blob-list")) {
      // This session's blobs and, from the journal, the earlier sessions' ones.
      return this.blobs()
        .map((b) => b.record)
        .filter(
          (r) =>
            (options.name === undefined || r.name === options.name) &&
            (options.tag === undefined || r.tags.includes(options.tag)),
        )
        .reverse()
        .slice(0, options.limit);
    }
    const { limit, ...rest } = options;
    const out: BlobRecord[] = [];
    let cursor = options.cursor;
    do {
      const page = await this.client.blobs.list({
        ...rest,
        cursor,
        limit: limit === undefined ? 1000 : Math.min(1000, limit - out.length),
      });
      out.push(...page.items);
      cursor = page.next_cursor ?? undefined;
    } while (cursor && (limit === undefined || out.length < limit));
    return out;
  }

  /**
   * The model's jobs from the service, newest first, every page (or the newest `limit`),
   * when it declares `job-list` (docs/contract.md#extensions); else the jobs this session sent
   * and, from the journal, those earlier sessions sent, newest first, each with its
   * status read once. `status` filters exactly. The records carry no events.
   */
  async jobs(options: JobListOptions & CallOptions = {}): Promise<Job[]> {
    if (!this.#declares("job-list")) return this.#journaledJobs(options);
    const { limit, ...rest } = options;
    const out: Job[] = [];
    let cursor = options.cursor;
    do {
      const page = await this.client.jobs.list({
        ...rest,
        cursor,
        limit: limit === undefined ? 1000 : Math.min(1000, limit - out.length),
      });
      out.push(...page.items.map((record) => new Job(this.#ctx, record.id, { record })));
      cursor = page.next_cursor ?? undefined;
    } while (cursor && (limit === undefined || out.length < limit));
    return out;
  }

  async #journaledJobs(options: JobListOptions & CallOptions): Promise<Job[]> {
    const own = [...this.#jobs].reverse();
    const ownIds = new Set(own.map((j) => j.id));
    // Without a status filter, only the jobs within `limit` need their status read.
    const wanted = options.status === undefined && options.limit !== undefined ? options.limit - own.length : undefined;
    const earlier = (this.#journal?.jobs() ?? [])
      .filter((entry) => !ownIds.has(entry.id))
      .slice(0, wanted === undefined ? undefined : Math.max(0, wanted))
      .map((entry) => journaledJob(this.#ctx, entry.id, entry));
    const { signal, timeoutMs } = options;
    // Earlier jobs' status is read once; one the service no longer knows keeps no record. This
    // session's jobs not seen to end are read again: the record of their send is not their status now.
    const unended = own.filter((job) => !(job.record && this.#ctx.statuses?.isTerminal(job.record.status)));
    await Promise.all([...unended, ...earlier].map((job) => job.status({ signal, timeoutMs }).catch(() => undefined)));
    const jobs = [...own, ...earlier].filter(
      (job) => options.status === undefined || job.record?.status === options.status,
    );
    return jobs.slice(0, options.limit);
  }

  /**
   * A fresh one-time login link to the portal (docs/contract.md#application-portal), for a
   * `Session.local()` session. It lives in this process only and dies with the session, so
   * no saved notebook, transcript or log holds a usable login. A connected session cannot
   * make one: the portal is the service operator's tool, and its link comes from them
   * (`mdps admin portal-link`, whose token also survives a restart).
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

  /** Whether the service reads files of a record type as they are: Parquet only where it declares `parquet`. */
  readonly #reads = (recordType: RecordType): boolean => recordType !== "parquet" || this.#declares("parquet");

  #declares(extension: string): boolean {
    return this.profile.capabilities.has(extension);
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
    // Names first, with "did you mean": a typo is a local error, never a 400 from the service.
    const paramProblems = checkParams(options.type, options.params ?? {});
    if (paramProblems.length > 0) throw new PreflightError(paramProblems);
    checkPreprocessOptions(options, this.modelId);
    if (options.jobId !== undefined && !uuid.safeParse(options.jobId).success) {
      throw localValidationError({ jobId: ["must be a lower-case UUID"] });
    }
    const inputKey = input instanceof Blob ? input.encryptionKey : keyOf(options.encrypt);
    if (inputKey !== undefined || options.outputs !== undefined) this.#assertEnvelope(options);
    const timeoutMs = requestTimeoutOf(options);
    // Read the input once and check it before any byte is sent (./preflight.ts).
    const prepared =
      input instanceof Blob
        ? undefined
        : await prepareUpload(input, options.upload?.recordType, this.wireFormat, options.upload ?? {}, this.#reads);
    let features: readonly string[] | undefined;
    let format: OutputFormat | undefined;
    if (prepared !== undefined) {
      const report = assertPreflight(preflight(await prepared.table(), options));
      for (const warning of report.warnings) this.#notify(warning.message);
      features = report.features;
      format = preprocessOutputFormat({ source: prepared.source, report, options, wireFormat: this.wireFormat });
      if (format.notice !== undefined) this.#notify(format.notice);
    }
    const blob =
      prepared === undefined
        ? (input as Blob)
        : await this.upload(prepared, {
            ...options.upload,
            // Uploaded on its own: kept for a while, then pruned (./auto-inputs.ts).
            tags: [...(options.upload?.tags ?? []), AUTO_INPUT_TAG],
            encrypt: inputKey,
            signal: options.signal,
            timeoutMs,
          });
    const built = buildPreprocessingRequest(
      { ...options, columns: this.#featureColumns({ given: options.columns, read: features, input: blob }) },
      {
        modelId: this.modelId,
        blobId: blob.id,
        name: blob.name,
        recordType: blob.recordType,
        outputRecordType: format?.recordType,
        key: blob.encrypted ? blob.encryptionKey : undefined,
        profile: this.profile,
      },
    );
    // The generic endpoint with our own id, where the service declares it idempotent: a
    // retried send cannot start a second job. Elsewhere the interface's preprocessing send.
    // Either way the job's id is the one the service answers with.
    const generic = this.profile.declares("idempotent-job-send");
    let location: string | undefined;
    const sendOptions = { signal: options.signal, timeoutMs, onLocation: (url: string) => (location = url) };
    const record = generic
      ? await this.client.jobs.send(
          {
            job_id: options.jobId ?? randomUUID(),
            model_id: this.modelId,
            job_type: "preprocessing",
            payload: built.request,
          },
          sendOptions,
        )
      : await this.#sendOnce(() => this.client.preprocessing.send(built.request, sendOptions));
    const readBase = location === undefined ? undefined : readBaseOf(location, record.id, this.baseUrl);
    this.#journalJob({ record, request: built.request, endpoint: generic ? "job" : "preprocessing", readBase });
    return this.#announce(
      new Job<T>(this.#ctx, record.id, {
        type: options.type,
        record,
        outputKeys: built.outputKeys,
        inputShape: blob.shape,
        input: blob,
        outputRecordTypes: built.outputRecordTypes,
        featureColumns: built.featureColumns,
        params: built.request.preprocessing_params,
        endpoint: generic ? "job" : "preprocessing",
        readBase,
      }),
    );
  }

  /**
   * Steps to fit as a chain of jobs, each on the previous job's output (docs/session.md#pipelines).
   * Transform names and params are checked now; `await pipeline.fit(df)` runs it.
   *
   * @example
   * const fitted = await session.pipeline([{ type: "PowerTransformer" }, { type: "StandardScaler" }]).fit(df);
   */
  pipeline(steps: readonly AnyPipelineStep[]): Pipeline {
    return new Pipeline(
      {
        wireFormat: this.wireFormat,
        reads: this.#reads,
        upload: (data, options) => this.upload(data, options),
        preprocess: (input, options) => this.preprocess(input, options),
        notify: (message) => this.#notify(message),
      },
      steps,
    );
  }

  /**
   * A send that is not idempotent there is made once: when its answer is lost the job
   * may exist, and a second send could start a duplicate, so the caller is told instead.
   */
  async #sendOnce<R>(send: () => Promise<R>): Promise<R> {
    try {
      return await send();
    } catch (error) {
      const lost =
        (error instanceof APIError && error.status >= 500) ||
        // Refused: the request never reached the service.
        (error instanceof ConnectionError &&
          !/ECONNREFUSED/.test(String((error.cause as { code?: unknown } | undefined)?.code))) ||
        error instanceof TimeoutError;
      if (!lost) throw error;
      const where = this.#declares("job-list") ? "session.jobs()" : "the service's portal";
      throw new SendOutcomeUnknownError(
        `The job send to ${this.baseUrl} failed after it left this machine (${error.message.replace(/\.$/, "")}), ` +
          `so the service may have made the job. mdps did not send it again: this service does not declare an ` +
          `idempotent send, and a second send could start a duplicate. Look for the job in ${where} before sending again.`,
        { cause: error },
      );
    }
  }

  /**
   * The feature columns to send: the caller's, else (where the service has not said that
   * an empty list means every numeric column) the numeric columns read from the input.
   */
  #featureColumns(from: {
    readonly given: readonly string[] | undefined;
    readonly read: readonly string[] | undefined;
    readonly input: Blob;
  }): readonly string[] | undefined {
    if (from.given !== undefined && from.given.length > 0) return from.given;
    if (this.profile.emptyFeatureColumnsMeanAll) return from.given;
    const known = from.read ?? numericColumnsOf(from.input.shape);
    if (known !== undefined) return known;
    throw new PreflightError([
      {
        field: "columns",
        message:
          `name the feature columns (columns: [...]): the service at ${this.baseUrl} does not declare that an empty ` +
          `list means every numeric column, and this session has not read blob ${from.input.id} to find them`,
      },
    ]);
  }

  /** Encryption uses mdps's envelope, which only a service that declares `envelope-v1` (or is said to) can read. */
  #assertEnvelope(options: { readonly encrypt?: unknown; readonly outputs?: unknown }): void {
    const outputs =
      options.outputs === undefined ? [] : Array.isArray(options.outputs) ? options.outputs : [options.outputs];
    const asks = (encrypt: unknown): boolean => encrypt !== undefined && encrypt !== false;
    const asked = asks(options.encrypt) || outputs.some((o) => asks((o as { encrypt?: unknown }).encrypt));
    if (!asked || this.profile.declares("envelope-v1")) return;
    throw new ConfigError(
      `The service at ${this.baseUrl} does not declare mdps's encryption envelope (envelope-v1) in health's capabilities, ` +
        `so it could not read what this session encrypts. Leave out encrypt, or, if the service does read the envelope, ` +
        `add "envelope-v1" to the capabilities option or the profile's "capabilities".`,
    );
  }

  /** POST /api/job/send with a caller-chosen id (generated when absent): idempotent. */
  async sendJob(options: SendJobOptions): Promise<Job> {
    const jobId = options.jobId ?? randomUUID();
    const payload = { model_id: this.modelId, ...options.payload };
    let location: string | undefined;
    const record = await this.client.jobs.send(
      { job_id: jobId, model_id: this.modelId, job_type: options.type, payload },
      { signal: options.signal, timeoutMs: options.timeoutMs, onLocation: (url) => (location = url) },
    );
    const readBase = location === undefined ? undefined : readBaseOf(location, record.id, this.baseUrl);
    this.#journalJob({ record, request: { model_id: this.modelId, ...options.payload }, endpoint: "job", readBase });
    return this.#announce(
      new Job(this.#ctx, record.id, { type: options.payload.preprocessing_type, record, endpoint: "job", readBase }),
    );
  }

  /** Records a sent job in the journal: ids, type, params, input, outputs; never a key. */
  #journalJob(sent: {
    readonly record: JobRecord;
    readonly request: CreatePreprocessingRequest;
    readonly endpoint: "job" | "preprocessing";
    readonly readBase?: string | undefined;
  }): void {
    const { record, request } = sent;
    this.#journal?.recordJob({
      id: record.id,
      type: request.preprocessing_type,
      params: request.preprocessing_params ?? {},
      input_blob_id: request.input_blob_id,
      feature_columns: [...(request.feature_columns ?? [])],
      endpoint: sent.endpoint,
      ...(sent.readBase === undefined ? {} : { read_base: sent.readBase }),
      outputs: request.output.map((o) => o.name),
      created_at: record.created_at ?? new Date().toISOString(),
    });
  }

  /**
   * Calls `listener` with every job this session sends (`preprocess`, `sendJob`),
   * once the service has accepted it and before the call resolves; returns a function
   * that unsubscribes. A job sent twice with the same `jobId` is reported twice (same
   * id). `job(id)` is not reported: it makes no job, only a handle on one that may
   * have been sent long ago or elsewhere. A listener that throws does not fail the
   * call (the job was sent); its error is reported as a process warning.
   *
   * @example
   * const stop = session.onJob((job) => console.log("sent", job.type, job.id));
   */
  onJob(listener: SessionJobListener): () => void {
    this.#jobListeners.add(listener);
    return () => {
      this.#jobListeners.delete(listener);
    };
  }

  /**
   * A handle on an existing job (e.g. from an earlier run), by id or by a unique prefix of
   * at least 4 characters of the id of a job this session sent or its journal remembers
   * (./job-lookup.ts). Not reported to `onJob` listeners. Its reads go to the job family
   * the journal says it was sent to; a job the journal does not know is read through
   * /api/job, and on a 404 through the other family.
   */
  job(idOrPrefix: string): Job {
    const journaled = this.#journal?.jobs() ?? [];
    const id = resolveJobId(idOrPrefix, [...this.#jobs, ...journaled]);
    const entry = journaled.find((j) => j.id === id);
    return journaledJob(this.#ctx, id, entry);
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
    const prepared = await prepareUpload(input, options.recordType, this.wireFormat, options, this.#reads);
    return new CheckReport(preflight(await prepared.table(), options));
  }

  /**
   * Calls `listener` with each notice this session gives in one line: a file uploaded
   * as a normalised copy, a warning of the pre-flight checks. Without listeners they go
   * to `process.emitWarning` (type MdpsWarning). Returns a function that unsubscribes.
   */
  onNotice(listener: SessionNoticeListener): () => void {
    this.#noticeListeners.add(listener);
    return () => {
      this.#noticeListeners.delete(listener);
    };
  }

  #notify(message: string): void {
    if (this.#noticeListeners.size === 0) {
      // In a notebook the notice shows in the cell; elsewhere it is a process warning.
      if (!showNotice(message)) process.emitWarning(message, "MdpsWarning");
      return;
    }
    for (const listener of [...this.#noticeListeners]) listener(message);
  }

  #announce<J extends Job>(job: J): J {
    this.#jobs.push(job);
    for (const listener of [...this.#jobListeners]) {
      try {
        listener(job);
      } catch (error) {
        process.emitWarning(
          `A Session.onJob listener threw: ${error instanceof Error ? error.message : String(error)}`,
          "MdpsWarning",
        );
      }
    }
    return job;
  }

  /** Closes connections; a local session also stops its service. Safe to call twice. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.client.close();
    await this.#local?.service.close();
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
    return sessionHtml({
      baseUrl: shownUrl(this.baseUrl),
      modelId: this.modelId,
      region: this.region ?? null,
      local: this.isLocal,
      dataDir: this.dataDir ?? null,
    });
  }

  [inspect.custom](depth: number, options: { depth?: number | null }): string {
    return inspectRich(
      () => ({ html: this.toHTML() }),
      `Session ${inspect(this.toJSON())}`,
      depth,
      options,
      this.toString(),
    );
  }

  /** A Deno notebook cell's value: the same card as `show(session)`; never a secret. */
  [JUPYTER_DISPLAY](): MimeBundle {
    return jupyterBundle(() => ({ html: this.toHTML() }), this.toString());
  }
}

function clientFor(local: LocalService, creds: LocalService["credentials"], options: TransportOptions): MdpsClient {
  // The URL is this process's own: MDPS_BASE_URL has nothing to do with it.
  const connectionHint =
    options.connectionHint ??
    `This session's local service (data dir ${local.dataDir}) is no longer running: it stops with session.close() or when its process ends. ` +
      `Open a new session with Session.local() on the same data dir; its blobs and jobs are kept there.`;
  const config = resolveConfig({
    env: {},
    configFile: false,
    baseUrl: local.service.url,
    clientId: creds.clientId,
    clientSecret: creds.clientSecret,
    modelId: creds.modelId,
  });
  // The embedded service is this process's own loopback: never through a proxy.
  return new MdpsClient(config, { ...options, proxy: false, connectionHint });
}

/** The numeric columns of a DataFrame the session uploaded, from its dtypes; undefined when unknown. */
function numericColumnsOf(shape: FrameShape | undefined): string[] | undefined {
  return shape?.columns.filter((c) => /^(float|int)/.test(shape.dtypes[c] ?? ""));
}

/** The journal a connected session keeps (ConnectOptions.journal). */
function openJournal(options: ConnectOptions, config: ClientConfig): Journal | undefined {
  const choice = options.journal ?? options.configFile !== false;
  if (choice === false) return undefined;
  const path =
    typeof choice === "string"
      ? choice
      : journalPath({
          configDir: configDirOf(options.env ?? process.env),
          baseUrl: config.baseUrl,
          modelId: config.modelId,
        });
  return Journal.open(path);
}
