/**
 * Whether a failure is transient: the service did not answer, or answered that it cannot
 * now (a connection refused or reset, an attempt's timeout, 502/503/504 from a gateway
 * without its service, 429). The transport has already retried where that was safe; the
 * caller may try again later, and `doctor` says "transient" instead of "fix the settings".
 */
import { APIError, ConnectionError, TimeoutError } from "./errors.js";

export const TRANSIENT_STATUSES: readonly number[] = [429, 502, 503, 504];

/** A service's answer that it cannot now: 429, 502, 503, 504 (not a connection refused, which may be a wrong address). */
export function isTransientAnswer(error: unknown): error is APIError {
  return error instanceof APIError && TRANSIENT_STATUSES.includes(error.status ?? 0);
}

export function isTransient(error: unknown): error is Error {
  if (error instanceof ConnectionError) return true;
  if (error instanceof TimeoutError) return true;
  return error instanceof APIError && TRANSIENT_STATUSES.includes(error.status ?? 0);
}
