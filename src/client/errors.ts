/**
 * The client's errors, all under MdpsError (../core/errors/mdps-error.ts).
 *
 * HTTP failures are built by one function, {@link makeAPIError}, from the status and
 * the ProblemDetails body (./error-factory.ts). Messages end with what to do next.
 */
import { MdpsError, type MdpsErrorOptions } from "../core/errors/mdps-error.js";
import type { FieldErrors } from "../core/contract/index.js";
import { parseRetryAfter } from "./retry-timing.js";

export { MdpsError, type MdpsErrorOptions };

export type { FieldErrors };

export interface APIErrorInit extends MdpsErrorOptions {
  /** The HTTP status the service answered; undefined for a check made before sending. */
  readonly status?: number | undefined;
  readonly code: string;
  readonly message: string;
  readonly title?: string | undefined;
  readonly detail?: string | undefined;
  readonly type?: string | undefined;
  readonly instance?: string | undefined;
  readonly requestId?: string | undefined;
  readonly errors?: FieldErrors | undefined;
  /** The parsed response body (ProblemDetails or anything else the service sent). */
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** `METHOD path` of the call that failed; undefined for a check made before sending. */
  readonly call?: string | undefined;
  /** What to do about it, when mdps knows better than the status's general advice. */
  readonly remedy?: string | undefined;
}

/** An HTTP response with a status >= 400 (or a request refused before sending). */
export class APIError extends MdpsError {
  /** The HTTP status the service answered; undefined for a check made before sending (no status was invented). */
  readonly status: number | undefined;
  readonly title: string | undefined;
  readonly detail: string | undefined;
  readonly type: string | undefined;
  readonly instance: string | undefined;
  /** The service's request id, to quote when reporting a problem. */
  readonly requestId: string | undefined;
  readonly errors: FieldErrors | undefined;
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string>>;
  /** `METHOD path` of the call that failed; undefined for a check made before sending. */
  readonly call: string | undefined;
  /** What to do about it, when mdps knows better than the status's general advice. */
  readonly remedy: string | undefined;

  constructor(init: APIErrorInit) {
    super(init.code, init.message, init);
    this.status = init.status;
    this.title = init.title;
    this.detail = init.detail;
    this.type = init.type;
    this.instance = init.instance;
    this.requestId = init.requestId;
    this.errors = init.errors;
    this.body = init.body;
    this.headers = init.headers ?? {};
    this.call = init.call;
    this.remedy = init.remedy;
  }
}

/** 400: the request was malformed. */
export class BadRequestError extends APIError {}
/**
 * 400 with field errors: a field had a bad value. Also thrown before sending when the
 * client's own check (the same zod schema the service uses) fails; then `status`,
 * `requestId` and `call` are undefined.
 */
export class ValidationError extends BadRequestError {}
/** 401: no valid token (bad credentials, expired or foreign token). */
export class AuthenticationError extends APIError {}
/** 403: the application lacks a scope, or the model id is not the token's model. */
export class PermissionDeniedError extends APIError {}
/** 404: unknown id (blobs and jobs of another model look unknown too). */
export class NotFoundError extends APIError {}
/** 409: result not ready, or a job id reused with another body. */
export class ConflictError extends APIError {}
/** 412: `If-Match` did not match: the blob changed since it was read. */
export class PreconditionFailedError extends APIError {}
/** 413: the file is larger than the service accepts. */
export class PayloadTooLargeError extends APIError {}
/** 415: the service did not accept the content type. */
export class UnsupportedMediaTypeError extends APIError {}
/** 429: too many requests; `retryAfterMs` from the Retry-After header when given. */
export class RateLimitError extends APIError {
  get retryAfterMs(): number | undefined {
    // Seconds or an HTTP-date (RFC 9110 10.2.3).
    return parseRetryAfter(this.headers["retry-after"], Date.now());
  }
}
/** 5xx: the service failed; retried already for idempotent calls. */
export class InternalServerError extends APIError {}

/** The token endpoint refused (RFC 6749 section 5.2); `code` is the OAuth error code. */
export class OAuthError extends APIError {
  /** The RFC 6749 `error` field, e.g. `invalid_client`. */
  get error(): string {
    return this.code;
  }
  get errorDescription(): string | undefined {
    return this.detail;
  }
}

/** No HTTP response: refused, reset, DNS failure... `cause` has the socket error. */
export class ConnectionError extends MdpsError {
  constructor(message: string, options: MdpsErrorOptions = {}) {
    super("connection_error", message, options);
  }
}

/** A per-call timeout (or a `wait({ timeout })`) ran out. */
export class TimeoutError extends MdpsError {
  readonly timeoutMs: number;
  constructor(message: string, timeoutMs: number, options: MdpsErrorOptions = {}) {
    super("timeout", message, options);
    this.timeoutMs = timeoutMs;
  }
}

/** The caller's AbortSignal fired. `cause` is the signal's reason. */
export class AbortError extends MdpsError {
  constructor(message = "The operation was aborted by its AbortSignal.", options: MdpsErrorOptions = {}) {
    super("aborted", message, options);
  }
}

/** The configuration is incomplete or inconsistent; `missing` lists absent items. */
export class ConfigError extends MdpsError {
  readonly missing: readonly string[];
  constructor(message: string, missing: readonly string[] = [], options: MdpsErrorOptions = {}) {
    super("config_error", message, options);
    this.missing = missing;
  }
}

/**
 * A job ended `failed`, `timed_out` or `cancelled` (code `job_failed`, `job_timed_out`,
 * `job_cancelled`); carries the job's own error and record.
 */
export class JobFailedError extends MdpsError {
  readonly jobId: string;
  readonly status: string;
  readonly title: string;
  readonly detail: string;
  readonly record: unknown;

  constructor(init: { jobId: string; status: string; title: string; detail: string; record: unknown }) {
    const [code, what, next] = ending(init.status);
    super(code, `Job ${init.jobId} ${what}: ${init.title}: ${init.detail} ${next}`);
    this.jobId = init.jobId;
    this.status = init.status;
    this.title = init.title;
    this.detail = init.detail;
    this.record = init.record;
  }
}

function ending(status: string): [code: string, what: string, next: string] {
  switch (status) {
    case "timed_out":
      return ["job_timed_out", "timed out", "Raise `jobTimeoutMs` (request_timeout_seconds) or send less data."];
    case "cancelled":
      return ["job_cancelled", "was cancelled", "Submit it again if you still need its result."];
    default:
      return ["job_failed", "failed", "See job.logs() for the details; fix the input or parameters and submit again."];
  }
}

/** A 2xx response whose body is not what the contract says (wrong service or version?). */
export class UnexpectedResponseError extends MdpsError {
  readonly status: number;
  readonly requestId: string | undefined;
  /** For a write the service did (2xx) but whose answer mdps cannot read: the id its answer holds. */
  readonly writtenId: string | undefined;
  /** The answer as parsed, when it was JSON. */
  readonly body: unknown;
  constructor(
    message: string,
    status: number,
    requestId: string | undefined,
    options: MdpsErrorOptions & { readonly writtenId?: string | undefined; readonly body?: unknown } = {},
  ) {
    super("unexpected_response", message, options);
    this.status = status;
    this.requestId = requestId;
    this.writtenId = options.writtenId;
    this.body = options.body;
  }
}

/**
 * A job ended `cancelled` (by `job.cancel()`, `/cancel`, or anyone else with the
 * scope): waits, `result()` and `dataframe()` reject with this. Code `job_cancelled`;
 * a JobFailedError, so code that handles any job ending keeps working.
 */
export class JobCancelledError extends JobFailedError {
  constructor(init: { jobId: string; title: string; detail: string; record: unknown }) {
    super({ ...init, status: "cancelled" });
    this.message = `Job ${init.jobId} was cancelled: ${init.detail.replace(/\.$/, "")}. It has no result; submit it again if you still need it.`;
  }
}

/** The error a wait throws for a job that ended `status` other than `succeeded`. */
export function jobEndedError(init: {
  jobId: string;
  status: string;
  title: string;
  detail: string;
  record: unknown;
}): JobFailedError {
  return init.status === "cancelled" ? new JobCancelledError(init) : new JobFailedError(init);
}

/**
 * The service does not offer an extension of the interface (docs/contract.md#extensions):
 * it did not declare it in health's `capabilities`, or answered 404/405. Code
 * `unsupported_extension`; `extension` names it (`cancel`).
 */
export class UnsupportedExtensionError extends MdpsError {
  readonly extension: string;
  constructor(extension: string, message: string, options: MdpsErrorOptions = {}) {
    super("unsupported_extension", message, options);
    this.extension = extension;
  }
}

/**
 * 409 to a cancel: the job already ended (`jobStatus` says how: `succeeded`, `failed`,
 * `timed_out`). Code `job_already_ended`.
 */
export class JobAlreadyEndedError extends ConflictError {
  readonly jobId: string;
  readonly jobStatus: string;
  constructor(init: APIErrorInit & { readonly jobId: string; readonly jobStatus: string }) {
    super(init);
    this.jobId = init.jobId;
    this.jobStatus = init.jobStatus;
  }
}

/**
 * A job send whose answer was lost (a gateway's 5xx, a dropped connection, a timeout)
 * at a service that does not declare an idempotent send: the job may or may not exist.
 * mdps does not send it again, so there is at most one; `cause` is the failure.
 */
export class SendOutcomeUnknownError extends MdpsError {
  constructor(message: string, options: MdpsErrorOptions = {}) {
    super("send_outcome_unknown", message, options);
  }
}
