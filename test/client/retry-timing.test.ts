import { describe, expect, it } from "vitest";
import {
  DEFAULT_RETRY_POLICY,
  parseRetryAfter,
  retryDelayMs,
  shouldRetryConnectionError,
  shouldRetryStatus,
} from "../../src/client/retry-timing.js";

describe("retry timing", () => {
  it("retries only the retryable statuses, and only 429 for non-idempotent calls", () => {
    for (const s of [408, 429, 502, 503, 504]) expect(shouldRetryStatus(s, true)).toBe(true);
    for (const s of [400, 401, 403, 404, 409, 412, 413, 500, 501]) expect(shouldRetryStatus(s, true)).toBe(false);
    expect(shouldRetryStatus(429, false)).toBe(true);
    expect(shouldRetryStatus(503, false)).toBe(false);
  });

  it("retries connection errors of non-idempotent calls only when nothing was sent", () => {
    expect(shouldRetryConnectionError("ECONNRESET", true)).toBe(true);
    expect(shouldRetryConnectionError("ECONNRESET", false)).toBe(false);
    expect(shouldRetryConnectionError("ECONNREFUSED", false)).toBe(true);
    expect(shouldRetryConnectionError(undefined, false)).toBe(false);
  });

  it("parses Retry-After as seconds or an HTTP date", () => {
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(parseRetryAfter("3", now)).toBe(3000);
    expect(parseRetryAfter("0.5", now)).toBe(500);
    expect(parseRetryAfter("Wed, 01 Jan 2025 00:00:10 GMT", now)).toBe(10_000);
    expect(parseRetryAfter("Tue, 31 Dec 2024 00:00:10 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it("backs off exponentially with jitter, capped", () => {
    const p = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1000 };
    expect(retryDelayMs(0, p, undefined, () => 0)).toBe(50);
    expect(retryDelayMs(0, p, undefined, () => 1)).toBe(100);
    expect(retryDelayMs(2, p, undefined, () => 1)).toBe(400);
    expect(retryDelayMs(10, p, undefined, () => 1)).toBe(1000);
    expect(retryDelayMs(10, p, undefined, () => 0)).toBe(500);
    const spread = new Set(Array.from({ length: 20 }, () => retryDelayMs(1, p, undefined)));
    expect(spread.size).toBeGreaterThan(1);
  });

  it("uses Retry-After as given, and refuses one beyond the bound", () => {
    const p = { ...DEFAULT_RETRY_POLICY, maxRetryAfterMs: 5000 };
    expect(retryDelayMs(0, p, 2000)).toBe(2000);
    expect(retryDelayMs(0, p, 0)).toBe(0);
    expect(retryDelayMs(0, p, 60_000)).toBeUndefined();
  });
});
