import {
  jobRecord,
  jobResult,
  logDetails,
  type CreatePreprocessingRequest,
  type JobExecutionLogDetails,
  type JobRecord,
  type JobResult,
  type SendJobRequest,
} from "../core/contract/job.js";
import { jobList, type JobList, type JobListOptions } from "../core/contract/listing.js";
import type { Capabilities } from "./capabilities.js";
import { JobVisibility } from "./job-visibility.js";
import { APIError, ConflictError, JobAlreadyEndedError, UnsupportedExtensionError } from "./errors.js";
import type { TokenCache } from "./token-cache.js";
import { explainWordRefusal, wordsOfOutput } from "./vendor/vendor-words.js";
import type { CallOptions, Transport } from "./transport.js";

export interface ListOptions extends CallOptions {
  /** The newest `limit` events or messages (1..10000, service default 1000). */
  readonly limit?: number | undefined;
}

export interface GetOptions extends ListOptions {
  /**
   * Hold the answer until the job's `revision` is greater than `since`, at most this many
   * ms (job get's `wait`, docs/contract.md#extensions; only where the service declares `wait`).
   */
  readonly waitMs?: number | undefined;
  /** The revision already seen; with `waitMs`, the answer comes once the job has a later one. */
  readonly since?: number | undefined;
}

/** The two job APIs of the interface: `/api/job/...` and `/api/ml/preprocessing/job/...`. */
export type JobFamily = "job" | "preprocessing";

export interface SendOptions extends CallOptions {
  /** Hears the absolute URL of the send's `Location` header (a 202's, or any answer's), when it gave one. */
  readonly onLocation?: ((url: string) => void) | undefined;
  /**
   * A service-numbered send answered 503 with `Retry-After` is sent again (the service did
   * not take it: ./retry-timing.ts); default true, the profile's `retry_refused_writes`.
   */
  readonly retryRefused?: boolean | undefined;
}

/**
 * Where a job's reads go, from the `Location` a send named: the path before the job's
 * id, when the id is a segment of it (`…/job/{id}/get` and `…/job/{id}` give `…/job`);
 * undefined when the Location does not name the job or is of another origin (the token
 * goes only to the model API's own origin).
 */
export function readBaseOf(location: string, jobId: string, sendUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(location, sendUrl);
  } catch {
    return undefined;
  }
  if (url.origin !== new URL(sendUrl).origin) return undefined;
  const segments = url.pathname.split("/");
  const at = segments.findIndex((segment) => decodeURIComponentSafe(segment) === jobId);
  if (at <= 0) return undefined;
  return `${url.origin}${segments.slice(0, at).join("/")}`;
}

function decodeURIComponentSafe(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Added to a held read's `waitMs` for the attempt's timeout: the answer itself still has to arrive. */
const HELD_READ_SLACK_MS = 30_000;

/**
 * Job reads (get, logs, result, list, cancel) under one base. The reference service
 * shows every job through both families; another service may not (docs/contract.md#two-job-families), so
 * a job is read through the family it was sent to, or the base its send's `Location`
 * named (`at`).
 */
export class JobReads {
  readonly #transport: Transport;
  readonly #tokens: TokenCache;
  readonly #capabilities: Capabilities | undefined;
  protected readonly base: string;
  /** When this client sent each job: a just-sent job's 404 is "not visible yet" (./job-visibility.ts). */
  readonly visibility: JobVisibility;

  constructor(
    transport: Transport,
    tokens: TokenCache,
    base: string,
    capabilities?: Capabilities,
    visibility: JobVisibility = new JobVisibility(),
  ) {
    this.#transport = transport;
    this.#tokens = tokens;
    this.base = base;
    this.#capabilities = capabilities;
    this.visibility = visibility;
  }

  /** The same reads under another base (one a send's `Location` named: see readBaseOf). */
  at(base: string): JobReads {
    return base === this.base
      ? this
      : new JobReads(this.#transport, this.#tokens, base, this.#capabilities, this.visibility);
  }

  /**
   * GET .../{id}/get: the job record with its newest `limit` events. With `waitMs` and
   * `since`, the service answers once the job changed (or after `waitMs`); the wire's
   * `wait` is in seconds.
   */
  async get(id: string, options: GetOptions = {}): Promise<JobRecord> {
    const { limit, waitMs, since, ...call } = options;
    const held = waitMs !== undefined && since !== undefined;
    const query = held ? { limit, wait: (Math.max(0, waitMs) / 1000).toFixed(3), since } : { limit };
    const timeoutMs = held ? Math.max(call.timeoutMs ?? 0, waitMs + HELD_READ_SLACK_MS) : call.timeoutMs;
    const read = () =>
      this.#transport.json(
        { method: "GET", url: this.#url(id, "get"), query, idempotent: true, tokens: this.#tokens, ...call, timeoutMs },
        jobRecord,
      );
    return this.visibility.read(id, read, call.signal);
  }

  /**
   * GET .../list (an extension: docs/contract.md#job-list): a page of the model's
   * jobs, newest first, without their events; `next_cursor` (null on the last page) asks
   * for the next. `limit` 1..1000 (service default 100), `status` one job status.
   * Throws UnsupportedExtensionError when the service does not declare `job-list` in
   * health's capabilities or answers 404/405 without declaring it.
   */
  async list(options: JobListOptions & CallOptions = {}): Promise<JobList> {
    const { limit, cursor, status, ...call } = options;
    const url = `${this.base}/list`;
    const answer = this.#capabilities ? await this.#capabilities.check("job-list", call) : "unknown";
    if (answer === "absent")
      throw listUnsupported("job-list", "the job list", url, "does not declare it in health's capabilities");
    try {
      return await this.#transport.json(
        { method: "GET", url, query: { limit, cursor, status }, idempotent: true, tokens: this.#tokens, ...call },
        jobList,
      );
    } catch (error) {
      if (error instanceof APIError && (error.status === 405 || (error.status === 404 && answer === "unknown"))) {
        throw listUnsupported(
          "job-list",
          "the job list",
          url,
          `answered ${error.status} to GET ${new URL(url).pathname}`,
          error,
        );
      }
      throw error;
    }
  }

  /** GET .../{id}/logs: the newest `limit` messages, oldest first. */
  async logs(id: string, options: ListOptions = {}): Promise<JobExecutionLogDetails> {
    const { limit, ...call } = options;
    const read = () =>
      this.#transport.json(
        {
          method: "GET",
          url: this.#url(id, "logs"),
          query: { limit },
          idempotent: true,
          tokens: this.#tokens,
          ...call,
        },
        logDetails,
      );
    return this.visibility.read(id, read, call.signal);
  }

  /**
   * GET .../{id}/result: 200 when succeeded; 409 ConflictError otherwise. `query` adds
   * parameters (a service's own flag that asks for the fitted state: `fittedQuery`).
   */
  async result(
    id: string,
    options: CallOptions & { readonly query?: Readonly<Record<string, string>> | undefined } = {},
  ): Promise<JobResult> {
    const { query, ...call } = options;
    const read = () =>
      this.#transport.json(
        { method: "GET", url: this.#url(id, "result"), query, idempotent: true, tokens: this.#tokens, ...call },
        jobResult,
      );
    return this.visibility.read(id, read, call.signal);
  }

  /**
   * POST .../{id}/cancel (an extension: docs/contract.md#extensions): a queued or running job
   * becomes `cancelled`; the record comes back. Cancelling a cancelled job is fine
   * (idempotent, so retried like a GET). Throws JobAlreadyEndedError (409) when the job
   * had already ended otherwise, and UnsupportedExtensionError when the service does not
   * declare `cancel` in health's capabilities or answers 404/405 without declaring it.
   */
  async cancel(id: string, options: CallOptions = {}): Promise<JobRecord> {
    const answer = this.#capabilities ? await this.#capabilities.check("cancel", options) : "unknown";
    const url = this.#url(id, "cancel");
    if (answer === "absent") throw cancelUnsupported(id, url, "does not declare it in health's capabilities");
    try {
      return await this.post(url, {}, true, options);
    } catch (error) {
      if (error instanceof APIError && (error.status === 405 || (error.status === 404 && answer === "unknown"))) {
        throw cancelUnsupported(id, url, `answered ${error.status} to POST ${new URL(url).pathname}`, error);
      }
      if (error instanceof ConflictError) throw alreadyEnded(id, error);
      throw error;
    }
  }

  protected async post(url: string, body: unknown, idempotent: boolean, options: SendOptions): Promise<JobRecord> {
    const { onLocation, retryRefused = true, ...call } = options;
    const json = JSON.stringify(body);
    return await this.#transport.json(
      {
        method: "POST",
        url,
        headers: { "content-type": "application/json" },
        body: () => json,
        idempotent,
        retryRefused,
        tokens: this.#tokens,
        onHeaders: (headers) => {
          const location = headers.location;
          if (location !== undefined && onLocation !== undefined) onLocation(absolute(location, url));
        },
        ...call,
      },
      jobRecord,
    );
  }

  #url(id: string, op: string): string {
    return `${this.base}/${encodeURIComponent(id)}/${op}`;
  }
}

function absolute(location: string, base: string): string {
  try {
    return new URL(location, base).toString();
  } catch {
    return location;
  }
}

function cancelUnsupported(id: string, url: string, why: string, cause?: unknown): UnsupportedExtensionError {
  return new UnsupportedExtensionError(
    "cancel",
    `This service (${new URL(url).origin}) does not offer cancel (it ${why}), so job ${id} goes on running.`,
    { cause },
  );
}

/** An extension the service does not offer, in one sentence (docs/contract.md#extensions). */
export function listUnsupported(
  extension: string,
  what: string,
  url: string,
  why: string,
  cause?: unknown,
): UnsupportedExtensionError {
  return new UnsupportedExtensionError(
    extension,
    `This service (${new URL(url).origin}) does not offer ${what} (it ${why}); everything else works as before.`,
    { cause },
  );
}

function alreadyEnded(id: string, error: ConflictError): ConflictError {
  const body = error.body as { job_status?: unknown } | undefined;
  const jobStatus = typeof body?.job_status === "string" ? body.job_status : undefined;
  if (jobStatus === undefined) return error;
  return new JobAlreadyEndedError({
    status: error.status,
    code: "job_already_ended",
    message: `Job ${id} already ended as ${jobStatus}; only a queued or running job can be cancelled.`,
    title: error.title,
    detail: error.detail,
    type: error.type,
    instance: error.instance,
    requestId: error.requestId,
    body: error.body,
    headers: error.headers,
    cause: error,
    jobId: id,
    jobStatus,
  });
}

/** The generic job API: /api/job/... */
export class JobsResource extends JobReads {
  constructor(
    transport: Transport,
    tokens: TokenCache,
    baseUrl: string,
    capabilities?: Capabilities,
    visibility?: JobVisibility,
  ) {
    super(transport, tokens, `${baseUrl}/api/job`, capabilities, visibility);
  }

  /**
   * POST /api/job/send. The caller chooses `job_id`, so sending twice is safe (the
   * service returns the existing job): this call is retried like a GET.
   */
  async send(request: SendJobRequest, options: SendOptions = {}): Promise<JobRecord> {
    const payload = request.payload as { output?: Array<Record<string, unknown>> } | undefined;
    try {
      return this.#visible(await this.post(`${this.base}/send`, request, true, options));
    } catch (error) {
      throw explainWordRefusal(error, wordsOfOutput(Array.isArray(payload?.output) ? payload.output[0] : undefined));
    }
  }

  #visible(record: JobRecord): JobRecord {
    this.visibility.sent(record.id);
    return record;
  }
}

/** The preprocessing job API: /api/ml/preprocessing/job/... */
export class PreprocessingResource extends JobReads {
  constructor(
    transport: Transport,
    tokens: TokenCache,
    baseUrl: string,
    capabilities?: Capabilities,
    visibility?: JobVisibility,
  ) {
    super(transport, tokens, `${baseUrl}/api/ml/preprocessing/job`, capabilities, visibility);
  }

  /**
   * POST /api/ml/preprocessing/job/send. The service picks the job id, so this is
   * not retried on 5xx; use `JobsResource.send` with your own id for a safe retry.
   */
  async send(request: CreatePreprocessingRequest, options: SendOptions = {}): Promise<JobRecord> {
    try {
      const record = await this.post(`${this.base}/send`, request, false, options);
      this.visibility.sent(record.id);
      return record;
    } catch (error) {
      throw explainWordRefusal(error, wordsOfOutput(Array.isArray(request.output) ? request.output[0] : undefined));
    }
  }
}
