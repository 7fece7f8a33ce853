/**
 * The client against the real service's rate limits: a 429 with a short Retry-After
 * is waited out and retried; one longer than the client's bound surfaces as a
 * RateLimitError, for the model API and for the token endpoint alike.
 */
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { MdpsClient } from "../../src/client/client.js";
import { RateLimitError } from "../../src/client/errors.js";
import type { RetryInfo } from "../../src/client/transport.js";
import { Harness, type AppCredentials } from "../service/service-harness.js";

const harness = new Harness();
const clients: MdpsClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});
afterAll(() => harness.cleanup());

function clientFor(url: string, app: AppCredentials, retries: RetryInfo[], maxRetryAfterMs?: number): MdpsClient {
  const client = MdpsClient.create({
    baseUrl: url,
    clientId: app.clientId,
    clientSecret: app.clientSecret,
    modelId: app.modelId,
    env: {},
    configFile: false,
    onRetry: (info) => retries.push(info),
    ...(maxRetryAfterMs !== undefined ? { retry: { maxRetryAfterMs } } : {}),
  });
  clients.push(client);
  return client;
}

describe("client retries against the service's 429", () => {
  it("waits out Retry-After and succeeds when the window is short", async () => {
    const service = await harness.start({ rateLimit: { apiPerMinute: 3, windowMs: 2000 } });
    const app = harness.app(service.dataDir);
    const retries: RetryInfo[] = [];
    const client = clientFor(service.url, app, retries);

    const started = Date.now();
    for (let i = 0; i < 5; i++) expect((await client.health.get()).status).toBe("healthy");
    const elapsed = Date.now() - started;

    // Call 4 falls into a full window (2 s, wide enough for a slow machine): the client
    // waited Retry-After (whole seconds left in the window) and then succeeded.
    expect(retries.length).toBeGreaterThanOrEqual(1);
    for (const r of retries) {
      expect(r).toMatchObject({ call: "GET /api/shared/health", reason: "429" });
      expect([1000, 2000]).toContain(r.delayMs);
    }
    expect(elapsed).toBeGreaterThanOrEqual(900);
  });

  it("surfaces a RateLimitError with retryAfterMs when Retry-After exceeds the client's bound", async () => {
    const service = await harness.start({ rateLimit: { apiPerMinute: 2 } });
    const app = harness.app(service.dataDir);
    const retries: RetryInfo[] = [];
    const client = clientFor(service.url, app, retries, 5_000);

    await client.health.get();
    await client.health.get();
    const error = await client.health.get().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RateLimitError);
    const limited = error as RateLimitError;
    expect(limited.status).toBe(429);
    expect(limited.retryAfterMs).toBeGreaterThan(5_000);
    expect(limited.retryAfterMs).toBeLessThanOrEqual(60_000);
    expect(limited.message).toContain("the limit is 2 per minute");
    expect(retries).toEqual([]);
  });

  it("maps a 429 of the token endpoint (problem+json, not an OAuth error) to a RateLimitError", async () => {
    const service = await harness.start({ rateLimit: { tokenPerMinute: 1 } });
    const app = harness.app(service.dataDir);
    const retries: RetryInfo[] = [];
    // The first client uses the one token request of this minute.
    expect((await clientFor(service.url, app, retries, 5_000).health.get()).status).toBe("healthy");

    // A second client has no cached token: its exchange is limited.
    const error = await clientFor(service.url, app, retries, 5_000)
      .health.get()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(RateLimitError);
    const limited = error as RateLimitError;
    expect(limited.retryAfterMs).toBeGreaterThan(5_000);
    expect(limited.message).toContain("POST /api/authorization/exchange failed with 429");
    expect(limited.message).not.toContain(app.clientSecret);
    expect(retries).toEqual([]);
  });
});
