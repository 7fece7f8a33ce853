import {
  jobRecord,
  jobResult,
  logDetails,
  type CreatePreprocessingRequest,
  type JobExecutionLogDetails,
  type JobRecord,
  type JobResult,
  type SendJobRequest,
} from "../contract/job.js";
import type { TokenCache } from "./token-cache.js";
import type { CallOptions, Transport } from "./transport.js";

export interface ListOptions extends CallOptions {
  /** The newest `limit` events or messages (1..10000, service default 1000). */
  readonly limit?: number | undefined;
}

/**
 * Job reads shared by /api/job/... and /api/ml/preprocessing/job/... (the same
 * jobs are visible through both).
 */
class JobReads {
  readonly #transport: Transport;
  readonly #tokens: TokenCache;
  protected readonly base: string;

  constructor(transport: Transport, tokens: TokenCache, base: string) {
    this.#transport = transport;
    this.#tokens = tokens;
    this.base = base;
  }

  /** GET .../{id}/get: the job record with its newest `limit` events. */
  async get(id: string, options: ListOptions = {}): Promise<JobRecord> {
    const { limit, ...call } = options;
    return this.#transport.json(
      { method: "GET", url: this.#url(id, "get"), query: { limit }, idempotent: true, tokens: this.#tokens, ...call },
      jobRecord,
    );
  }

  /** GET .../{id}/logs: the newest `limit` messages, oldest first. */
  async logs(id: string, options: ListOptions = {}): Promise<JobExecutionLogDetails> {
    const { limit, ...call } = options;
    return this.#transport.json(
      { method: "GET", url: this.#url(id, "logs"), query: { limit }, idempotent: true, tokens: this.#tokens, ...call },
      logDetails,
    );
  }

  /** GET .../{id}/result: 200 when succeeded; 409 ConflictError otherwise. */
  async result(id: string, options: CallOptions = {}): Promise<JobResult> {
    return this.#transport.json(
      { method: "GET", url: this.#url(id, "result"), idempotent: true, tokens: this.#tokens, ...options },
      jobResult,
    );
  }

  protected post(url: string, body: unknown, idempotent: boolean, options: CallOptions): Promise<JobRecord> {
    const json = JSON.stringify(body);
    return this.#transport.json(
      {
        method: "POST",
        url,
        headers: { "content-type": "application/json" },
        body: () => json,
        idempotent,
        tokens: this.#tokens,
        ...options,
      },
      jobRecord,
    );
  }

  #url(id: string, op: string): string {
    return `${this.base}/${encodeURIComponent(id)}/${op}`;
  }
}

/** The generic job API: /api/job/... */
export class JobsResource extends JobReads {
  constructor(transport: Transport, tokens: TokenCache, baseUrl: string) {
    super(transport, tokens, `${baseUrl}/api/job`);
  }

  /**
   * POST /api/job/send. The caller chooses `job_id`, so sending twice is safe (the
   * service returns the existing job): this call is retried like a GET.
   */
  async send(request: SendJobRequest, options: CallOptions = {}): Promise<JobRecord> {
    return this.post(`${this.base}/send`, request, true, options);
  }
}

/** The preprocessing job API: /api/ml/preprocessing/job/... */
export class PreprocessingResource extends JobReads {
  constructor(transport: Transport, tokens: TokenCache, baseUrl: string) {
    super(transport, tokens, `${baseUrl}/api/ml/preprocessing/job`);
  }

  /**
   * POST /api/ml/preprocessing/job/send. The service picks the job id, so this is
   * not retried on 5xx; use `JobsResource.send` with your own id for a safe retry.
   */
  async send(request: CreatePreprocessingRequest, options: CallOptions = {}): Promise<JobRecord> {
    return this.post(`${this.base}/send`, request, false, options);
  }
}
