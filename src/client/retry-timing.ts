/**
 * Retry decisions as small pure functions, so the policy is testable without a clock.
 */

export interface RetryPolicy {
  /** Retries after the first attempt (so `maxRetries + 1` attempts in all). */
  readonly maxRetries: number;
  /** First backoff delay; doubles each retry. */
  readonly baseDelayMs: number;
  /** Cap of one backoff delay. */
  readonly maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the error is thrown instead. */
  readonly maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 3,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

/** Statuses that mean "not processed, try again later". */
const RETRYABLE_STATUSES = new Set([408, 429, 502, 503, 504]);

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status);
}

/**
 * Whether to retry a response. Idempotent calls retry every retryable status; a
 * non-idempotent call (a POST without a caller-chosen id) retries 429, which the service
 * answers before doing anything, and, where `refusals` allows, a 503 with `Retry-After`:
 * the service saying it cannot take the request now (RFC 9110 15.6.4), not that it lost
 * it. A 502 or 504, or a 503 without `Retry-After`, may come after the service took the
 * request, so those stay unretried.
 */
export function shouldRetryStatus(
  status: number,
  idempotent: boolean,
  refusals: { readonly retryAfter: boolean; readonly retryRefused: boolean } = {
    retryAfter: false,
    retryRefused: false,
  },
): boolean {
  if (idempotent) return isRetryableStatus(status);
  return status === 429 || (status === 503 && refusals.retryAfter && refusals.retryRefused);
}

/** Socket error codes that mean the request never reached the service. */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "UND_ERR_CONNECT_TIMEOUT"]);

/** Whether a transport failure's socket error code says the request never reached the service. */
export function neverSent(code: string | undefined): boolean {
  return code !== undefined && NOT_SENT_CODES.has(code);
}

/** Whether a transport failure (no response) may be retried. */
export function shouldRetryConnectionError(code: string | undefined, idempotent: boolean): boolean {
  return idempotent || neverSent(code);
}

/**
 * Parses Retry-After (delay-seconds or an HTTP-date) into milliseconds from `now`.
 * Returns undefined when absent or unparseable.
 */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * Delay before retry number `retry` (0 for the first retry), or undefined when the
 * service asked for a wait longer than the policy allows.
 *
 * With Retry-After the service's delay is used as is. Otherwise exponential backoff
 * with "equal jitter": half the delay fixed, half random, so clients that failed
 * together do not retry together.
 */
export function retryDelayMs(
  retry: number,
  policy: RetryPolicy,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number | undefined {
  if (retryAfterMs !== undefined) {
    return retryAfterMs > policy.maxRetryAfterMs ? undefined : retryAfterMs;
  }
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return exp / 2 + (exp / 2) * random();
}
