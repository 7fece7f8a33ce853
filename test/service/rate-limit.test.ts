import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { startService } from "../../src/server/index.js";
import {
  Api,
  exchange,
  expectOAuthError,
  expectProblem,
  granted,
  Harness,
  tokenFor,
  type AppCredentials,
} from "./service-harness.js";

const harness = new Harness();
afterAll(() => harness.cleanup());

const form = (app: AppCredentials, secret = app.clientSecret) => ({
  grant_type: "client_credentials",
  client_id: app.clientId,
  client_secret: secret,
  scope: "",
});

function retryAfterSeconds(headers: Headers): number {
  const value = headers.get("retry-after");
  expect(value).toMatch(/^\d+$/);
  return Number(value);
}

describe("rate limits: token endpoint", () => {
  it("answers 429 problem+json with Retry-After past the limit per client_id, other clients unaffected", async () => {
    const service = await harness.inject({ rateLimit: { tokenPerMinute: 3 } });
    const a = harness.app(service.dataDir);
    const b = harness.app(service.dataDir);

    // Failed attempts count too: that is what bounds secret guessing (and scrypt CPU).
    for (let i = 0; i < 3; i++) {
      const wrong = await exchange(service, form(a, "wrong-secret"));
      expect(expectOAuthError(wrong, 401).error).toBe("invalid_client");
      expect(wrong.headers.get("x-ratelimit-remaining")).toBe(String(2 - i));
    }
    const limited = await exchange(service, form(a));
    expect(limited.status).toBe(429);
    expect(limited.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(limited.headers.get("cache-control")).toBe("no-store");
    const seconds = retryAfterSeconds(limited.headers);
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(limited.body).toMatchObject({
      type: "https://www.rfc-editor.org/rfc/rfc6585#section-4",
      title: "Too Many Requests",
      status: 429,
      instance: "/api/authorization/exchange",
      retry_after_seconds: seconds,
    });
    const { detail } = expectProblem(limited, 429);
    expect(detail).toContain("the limit is 3 per minute");
    expect(detail).toContain(`Retry after ${seconds} s`);
    expect(detail).toContain("--token-rate-limit");
    expect(JSON.stringify(limited.body)).not.toContain(a.clientSecret);

    // Another client from the same address has its own budget.
    const other = await exchange(service, form(b));
    const otherToken = granted(other);
    expect(otherToken.token_type).toBe("Bearer");

    // The service keeps serving: b's token works on the model API.
    const health = await new Api(service, otherToken.access_token, b.modelId).call("GET", "/api/shared/health");
    expect(health.status).toBe(200);
  });

  it("keys HTTP Basic credentials on their client_id too", async () => {
    const service = await harness.inject({ rateLimit: { tokenPerMinute: 1 } });
    const a = harness.app(service.dataDir);
    const basic = (secret: string) =>
      service.fetch(`${service.url}/api/authorization/exchange`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          authorization: `Basic ${Buffer.from(`${a.clientId}:${secret}`).toString("base64")}`,
        },
        body: "grant_type=client_credentials",
      });
    expect((await basic(a.clientSecret)).status).toBe(200);
    const limited = await basic(a.clientSecret);
    expect(limited.status).toBe(429);
    expectProblem({ status: limited.status, headers: limited.headers, body: await limited.json() }, 429);
  });
});

describe("rate limits: token endpoint, per address", () => {
  it("bounds a caller who invents a new client_id for every attempt", async () => {
    const service = await harness.inject({ rateLimit: { tokenPerAddressPerMinute: 3, windowMs: 3000 } });
    const app = harness.app(service.dataDir);

    // Each invented client_id has a fresh per-client budget, but they share the address's.
    for (let i = 0; i < 3; i++) {
      const guess = await exchange(service, { ...form(app), client_id: `invented-${i}` });
      expect(guess.status).toBe(401);
      // The X-RateLimit headers stay the per-client budget's (120), as documented.
      expect(guess.headers.get("x-ratelimit-limit")).toBe("120");
    }
    const limited = await exchange(service, { ...form(app), client_id: "invented-3" });
    expect(limited.status).toBe(429);
    const seconds = retryAfterSeconds(limited.headers);
    expect(limited.body).toMatchObject({
      status: 429,
      instance: "/api/authorization/exchange",
      retry_after_seconds: seconds,
    });
    const { detail } = expectProblem(limited, 429);
    expect(detail).toContain("token requests from this address (all client_ids together)");
    expect(detail).toContain("the limit is 3 per 3 s");
    expect(detail).toContain("--token-address-rate-limit");

    // A real client from the same address waits too, and gets through once the window has passed.
    expect((await exchange(service, form(app))).status).toBe(429);
    await new Promise((r) => setTimeout(r, seconds * 1000 + 100));
    const token = await exchange(service, form(app));
    expect(
      (await new Api(service, granted(token).access_token, app.modelId).call("GET", "/api/shared/health")).status,
    ).toBe(200);
  });

  it("lets a few invented client_ids through under the default, and is off with 0", async () => {
    const byDefault = await harness.inject();
    const app = harness.app(byDefault.dataDir);
    for (let i = 0; i < 5; i++)
      expect((await exchange(byDefault, { ...form(app), client_id: `invented-${i}` })).status).toBe(401);
    const off = await harness.inject({ rateLimit: { tokenPerAddressPerMinute: 0, tokenPerMinute: 0 } });
    const other = harness.app(off.dataDir);
    const reply = await exchange(off, form(other));
    expect(reply.status).toBe(200);
    expect(reply.headers.get("x-ratelimit-limit")).toBeNull();
    expect(reply.headers.get("retry-after")).toBeNull();
  });
});

describe("rate limits: model API", () => {
  it("limits calls per access token across endpoints; another token is unaffected", async () => {
    const service = await harness.inject({ rateLimit: { apiPerMinute: 3 } });
    const app = harness.app(service.dataDir);
    const first = new Api(service, await tokenFor(service, app), app.modelId);
    const second = new Api(service, await tokenFor(service, app), app.modelId);

    for (let i = 0; i < 3; i++) {
      const ok = await first.call("GET", "/api/shared/health");
      expect(ok.status).toBe(200);
      expect(ok.headers.get("x-ratelimit-limit")).toBe("3");
    }
    const limited = await first.call("GET", "/api/shared/health");
    const problem = expectProblem(limited, 429);
    const seconds = retryAfterSeconds(limited.headers);
    expect(problem).toMatchObject({ instance: "/api/shared/health", retry_after_seconds: seconds });
    expect(problem.detail).toContain("model API calls with this access token");
    expect(problem.detail).toContain("--api-rate-limit");
    expect(JSON.stringify(problem)).not.toContain(first.token!);

    // The count is per token, not per endpoint: a job lookup is refused before it runs.
    expectProblem(await first.call("GET", `/api/job/${randomUUID()}/get`), 429);

    // Another token of the same application has its own budget, and the service keeps serving.
    expect((await second.call("GET", "/api/shared/health")).status).toBe(200);
    expectProblem(await second.call("GET", `/api/job/${randomUUID()}/get`), 404);

    // Authentication comes first: no token is still a 401, not a 429.
    const anonymous = await new Api(service, undefined, app.modelId).call("GET", "/api/shared/health");
    expectProblem(anonymous, 401);
  });

  it("a short window lets the same token through again once Retry-After has passed", async () => {
    const service = await harness.inject({ rateLimit: { apiPerMinute: 2, windowMs: 2000 } });
    const app = harness.app(service.dataDir);
    const api = new Api(service, await tokenFor(service, app), app.modelId);
    expect((await api.call("GET", "/api/shared/health")).status).toBe(200);
    expect((await api.call("GET", "/api/shared/health")).status).toBe(200);
    const limited = await api.call("GET", "/api/shared/health");
    const problem = expectProblem(limited, 429);
    const seconds = retryAfterSeconds(limited.headers);
    expect([1, 2]).toContain(seconds);
    expect(problem.detail).toContain("the limit is 2 per 2 s");
    await new Promise((r) => setTimeout(r, seconds * 1000 + 100));
    expect((await api.call("GET", "/api/shared/health")).status).toBe(200);
  });

  it("never logs the token, also not for limited calls", async () => {
    const lines: string[] = [];
    const service = await harness.inject({
      rateLimit: { apiPerMinute: 1 },
      logger: true,
      logDestination: { write: (l) => lines.push(l) },
    });
    const app = harness.app(service.dataDir);
    const token = await tokenFor(service, app);
    const api = new Api(service, token, app.modelId);
    expect((await api.call("GET", "/api/shared/health")).status).toBe(200);
    expectProblem(await api.call("GET", "/api/shared/health"), 429);
    expect(lines.some((l) => l.includes('"statusCode":429'))).toBe(true);
    expect(lines.join("")).not.toContain(token);
  });
});

describe("rate limits: configuration", () => {
  it("has generous defaults, reported in the X-RateLimit-Limit headers", async () => {
    const service = await harness.inject();
    const app = harness.app(service.dataDir);
    const token = await exchange(service, form(app));
    expect(token.headers.get("x-ratelimit-limit")).toBe("120");
    const health = await new Api(service, granted(token).access_token, app.modelId).call("GET", "/api/shared/health");
    expect(health.headers.get("x-ratelimit-limit")).toBe("6000");
  });

  it.each([
    ["false", false as const],
    ["0", { tokenPerMinute: 0, tokenPerAddressPerMinute: 0, apiPerMinute: 0 }],
  ])("rateLimit %s disables every limit", async (_name, rateLimit) => {
    const service = await harness.inject({ rateLimit });
    const app = harness.app(service.dataDir);
    let token = "";
    for (let i = 0; i < 4; i++) {
      const reply = await exchange(service, form(app));
      expect(reply.status).toBe(200);
      expect(reply.headers.get("x-ratelimit-limit")).toBeNull();
      token = granted(reply).access_token;
    }
    const api = new Api(service, token, app.modelId);
    for (let i = 0; i < 20; i++) {
      const reply = await api.call("GET", "/api/shared/health");
      expect(reply.status).toBe(200);
      expect(reply.headers.get("x-ratelimit-limit")).toBeNull();
    }
  });

  it("refuses negative or fractional limits with a clear message", async () => {
    const dataDir = await harness.tempDir();
    await expect(startService({ dataDir, rateLimit: { apiPerMinute: -1 } })).rejects.toThrow(
      /rateLimit.apiPerMinute must be an integer >= 0 \(0 disables\)/,
    );
    await expect(startService({ dataDir, rateLimit: { tokenPerMinute: 1.5 } })).rejects.toThrow(
      /rateLimit.tokenPerMinute/,
    );
    await expect(startService({ dataDir, rateLimit: { tokenPerAddressPerMinute: -3 } })).rejects.toThrow(
      /rateLimit.tokenPerAddressPerMinute/,
    );
    await expect(startService({ dataDir, rateLimit: { windowMs: 0 } })).rejects.toThrow(
      /rateLimit.windowMs must be a positive integer/,
    );
  });
});
