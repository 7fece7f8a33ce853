import { afterEach, describe, expect, it } from "vitest";
import { MdpsClient } from "../../src/client/client.js";
import {
  AbortError,
  AuthenticationError,
  ConnectionError,
  InternalServerError,
  OAuthError,
  RateLimitError,
  TimeoutError,
  UnexpectedResponseError,
} from "../../src/client/errors.js";
import { asyncSource, problem, sendJson, startFixture, type Fixture, type Handler } from "./http-fixture.js";

const MODEL = "0b6b5a0e-4d5e-4c1e-9a39-2f3c1d0e7a11";
const SECRET = "s3cr3t-VALUE-that-must-never-leak-0123456789abcdef";
const HEALTHY = { status: "healthy", region: "local", version: "test", uptime_seconds: 1, checks: {} };
const BLOB = {
  id: "1b6b5a0e-4d5e-4c1e-9a39-2f3c1d0e7a11",
  model_id: MODEL,
  name: "x",
  description: null,
  record_type: "csv",
  access_tier: "hot",
  tags: [],
  content_type: "text/csv",
  size_bytes: 3,
  sha256: "ab",
  encrypted: false,
  created_at: "2025-01-01T00:00:00Z",
  updated_at: "2025-01-01T00:00:00Z",
};

let fixture: Fixture | undefined;
let client: MdpsClient | undefined;
afterEach(async () => {
  await client?.close();
  await fixture?.close();
  client = undefined;
  fixture = undefined;
});

/** A service whose token endpoint issues t1, t2, ... and whose API calls go to `api`. */
async function serve(api: Handler, opts: { expiresIn?: number; retry?: object; timeoutMs?: number } = {}) {
  let issued = 0;
  fixture = await startFixture((req, res, i) => {
    if (req.path === "/api/authorization/exchange") {
      issued += 1;
      sendJson(res, 200, {
        access_token: `t${issued}`,
        token_type: "Bearer",
        expires_in: opts.expiresIn ?? 3600,
        scope: "",
      });
      return;
    }
    return api(req, res, i);
  });
  client = MdpsClient.create({
    baseUrl: fixture.url,
    clientId: "app-1",
    clientSecret: SECRET,
    modelId: MODEL,
    env: {},
    retry: { baseDelayMs: 10, maxDelayMs: 50, ...opts.retry },
    timeoutMs: opts.timeoutMs,
  });
  return { fixture, client, tokensIssued: () => issued };
}

const apiCalls = (f: Fixture) => f.requests.filter((r) => r.path !== "/api/authorization/exchange");

describe("transport: retries", () => {
  it("retries an idempotent call on injected 503s, honouring Retry-After", async () => {
    const { fixture, client } = await serve((_req, res) => {
      const n = apiCalls(fixture).length;
      if (n <= 2) sendJson(res, 503, problem(503, "Unavailable", "warming up"), { "retry-after": "1" });
      else sendJson(res, 200, HEALTHY);
    });
    const started = Date.now();
    const health = await client.health.get();
    expect(health.region).toBe("local");
    expect(apiCalls(fixture)).toHaveLength(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
  });

  it("gives up after maxRetries with the last error and its request id", async () => {
    const { fixture, client } = await serve((_req, res) =>
      sendJson(res, 503, problem(503, "Unavailable", "down"), { "x-request-id": "rq-9" }),
    );
    const err = await client.health.get().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InternalServerError);
    expect((err as InternalServerError).status).toBe(503);
    expect((err as InternalServerError).requestId).toBe("rq-9");
    expect(apiCalls(fixture)).toHaveLength(4);
  });

  it("does not retry a non-idempotent upload on 503, but does on 429", async () => {
    const { fixture, client } = await serve((_req, res) => sendJson(res, 503, problem(503, "Unavailable", "down")));
    const err = await client.blobs
      .upload({ name: "a", recordType: "csv" }, Buffer.from("a\n1\n"))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InternalServerError);
    expect(apiCalls(fixture)).toHaveLength(1);
    await client.close();
    await fixture.close();

    const second = await serve((_req, res) => {
      if (apiCalls(second.fixture).length === 1)
        sendJson(res, 429, problem(429, "Too Many", "slow"), { "retry-after": "0" });
      else sendJson(res, 200, BLOB);
    });
    const rec = await second.client.blobs.upload({ name: "a", recordType: "csv" }, () => asyncSource(["a\n", "1\n"]));
    expect(rec.id).toBe(BLOB.id);
    const uploads = apiCalls(second.fixture);
    expect(uploads).toHaveLength(2);
    // The streamed body was rebuilt for the retry and arrives whole.
    expect(uploads[1]!.body).toContain("a\n1\n");
  });

  it("a Retry-After beyond the bound is not waited for", async () => {
    const { client } = await serve((_req, res) =>
      sendJson(res, 429, problem(429, "Too Many", "later"), { "retry-after": "3600" }),
    );
    const err = await client.health.get().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).retryAfterMs).toBe(3_600_000);
  });

  it("a refused connection is a ConnectionError after retries", async () => {
    const { fixture, client } = await serve((_req, res) => sendJson(res, 200, HEALTHY));
    await fixture.close();
    const err = await client.health.get().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect((err as ConnectionError).code).toBe("connection_error");
    expect((err as Error).message).toMatch(/could not reach http:\/\/127\.0\.0\.1:\d+ .*ECONNREFUSED/);
    // The socket's own error is kept as the cause.
    expect((err as Error).cause).toMatchObject({ code: "ECONNREFUSED" });
  });
});

describe("transport: tokens", () => {
  it("concurrent calls share one token request", async () => {
    const { client, tokensIssued } = await serve((_req, res) => sendJson(res, 200, HEALTHY));
    await Promise.all(Array.from({ length: 10 }, () => client.health.get()));
    expect(tokensIssued()).toBe(1);
    await client.health.get();
    expect(tokensIssued()).toBe(1);
  });

  it("refreshes ahead of expiry using expires_in", async () => {
    const { fixture, client, tokensIssued } = await serve((_req, res) => sendJson(res, 200, HEALTHY), { expiresIn: 1 });
    await client.health.get();
    await new Promise((r) => setTimeout(r, 950));
    await client.health.get();
    expect(tokensIssued()).toBe(2);
    const auth = apiCalls(fixture).map((r) => r.headers.authorization);
    expect(auth).toEqual(["Bearer t1", "Bearer t2"]);
  });

  it("on a 401 fetches a new token and retries once; a second 401 is thrown", async () => {
    const { fixture, client, tokensIssued } = await serve((req, res) => {
      if (req.headers.authorization === "Bearer t1")
        sendJson(res, 401, problem(401, "Unauthorized", "token expired"), { "www-authenticate": "Bearer" });
      else sendJson(res, 200, HEALTHY);
    });
    await client.health.get();
    expect(tokensIssued()).toBe(2);
    expect(apiCalls(fixture)).toHaveLength(2);

    const always = await serve((_req, res) => sendJson(res, 401, problem(401, "Unauthorized", "foreign token")));
    const err = await always.client.health.get().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthenticationError);
    expect(apiCalls(always.fixture)).toHaveLength(2);
  });

  it("sends the secret only to the token endpoint, form-encoded", async () => {
    const { fixture, client } = await serve((_req, res) => sendJson(res, 200, HEALTHY));
    await client.health.get();
    await client.blobs.upload({ name: "a", recordType: "csv" }, Buffer.from("a\n1\n")).catch(() => undefined);
    const tokenReqs = fixture.requests.filter((r) => r.path === "/api/authorization/exchange");
    expect(tokenReqs).toHaveLength(1);
    const form = new URLSearchParams(tokenReqs[0]!.body);
    expect(form.get("grant_type")).toBe("client_credentials");
    expect(form.get("client_id")).toBe("app-1");
    expect(form.get("client_secret")).toBe(SECRET);
    expect(tokenReqs[0]!.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    for (const r of apiCalls(fixture)) {
      expect(JSON.stringify(r.headers)).not.toContain(SECRET);
      expect(r.body).not.toContain(SECRET);
      expect(r.path).not.toContain(SECRET);
    }
  });

  it("an OAuth refusal is an OAuthError that does not contain the secret", async () => {
    fixture = await startFixture((req, res) =>
      req.path === "/api/authorization/exchange"
        ? sendJson(res, 401, { error: "invalid_client", error_description: "Client authentication failed." })
        : sendJson(res, 200, HEALTHY),
    );
    client = MdpsClient.create({
      baseUrl: fixture.url,
      clientId: "app-1",
      clientSecret: SECRET,
      modelId: MODEL,
      env: {},
    });
    const err = await client.health.get().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OAuthError);
    expect((err as OAuthError).code).toBe("invalid_client");
    expect(String(err)).not.toContain(SECRET);
    expect(JSON.stringify(err)).not.toContain(SECRET);
    expect(fixture.requests).toHaveLength(1);
  });
});

describe("transport: timeouts, aborts, bodies", () => {
  it("a slow response is a TimeoutError", async () => {
    const { client } = await serve(
      async (_req, res) => {
        await new Promise((r) => setTimeout(r, 20_000));
        sendJson(res, 200, HEALTHY);
      },
      { retry: { maxRetries: 0 }, timeoutMs: 200 },
    );
    const started = Date.now();
    const err = await client.health.get().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect((err as TimeoutError).timeoutMs).toBe(200);
    // Well before the 20 s answer, however busy the machine.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("an AbortSignal stops the call at once, and no retry follows", async () => {
    const { fixture, client } = await serve(async (_req, res) => {
      await new Promise((r) => setTimeout(r, 20_000));
      sendJson(res, 200, HEALTHY);
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("user stop")), 100);
    const started = Date.now();
    const err = await client.health.get({ signal: controller.signal }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AbortError);
    expect((err as AbortError).code).toBe("aborted");
    // Well before the 20 s answer, however busy the machine.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(apiCalls(fixture)).toHaveLength(1);
    // An already aborted signal sends nothing.
    const again = await client.health.get({ signal: controller.signal }).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(AbortError);
    expect(apiCalls(fixture)).toHaveLength(1);
  });

  it("a body that breaks the contract is an UnexpectedResponseError", async () => {
    // Only what the interface shows is required: a health without even a status breaks it.
    const { client } = await serve((_req, res) => sendJson(res, 200, { healthy: true }));
    const err = await client.health.get().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnexpectedResponseError);
    expect((err as Error).message).toContain("status");
  });

  it("keeps unknown fields of a response", async () => {
    const { client } = await serve((_req, res) => sendJson(res, 200, { ...HEALTHY, build: "abc" }));
    const health = await client.health.get();
    expect((health as Record<string, unknown>).build).toBe("abc");
  });

  it("builds multipart with the metadata parts first and the file last", async () => {
    const { fixture, client } = await serve((_req, res) => sendJson(res, 200, BLOB));
    await client.blobs.upload(
      { name: "data", recordType: "csv", accessTier: "cool", description: "d", tags: ["a", "k=v"] },
      Buffer.from("x,y\n1,2\n"),
    );
    const req = apiCalls(fixture)[0]!;
    expect(req.path).toBe(`/api/model/${MODEL}/shared/blob/upload`);
    const boundary = /boundary=(.+)$/.exec(req.headers["content-type"]!)![1]!;
    const names = [...req.body.matchAll(/; name="([^"]+)"/g)].map((m) => m[1]);
    // The metadata in the order the contract lists it (BLOB_METADATA_FIELDS), the file last.
    expect(names).toEqual(["Name", "Description", "RecordType", "AccessTier", "Tags", "Tags", "File"]);
    expect(req.body).toContain('filename="data.csv"\r\nContent-Type: text/csv\r\n\r\nx,y\n1,2\n\r\n');
    expect(req.body.endsWith(`--${boundary}--\r\n`)).toBe(true);
  });
});

describe("transport: body errors", () => {
  it("an upload whose source fails reports that failure, not a connection error", async () => {
    const { fixture, client } = await serve((_req, res) => sendJson(res, 200, BLOB));
    const err = await client.blobs
      .upload({ name: "a", recordType: "csv" }, () => asyncSource(["a\n"], new Error("disk on fire")))
      .catch((e: unknown) => e);
    expect((err as Error).message).toBe("disk on fire");
    expect(apiCalls(fixture).length).toBeLessThanOrEqual(1);
  });
});

describe("transport: upload timeouts", () => {
  it("a stalled upload body is a TimeoutError", async () => {
    const { client } = await serve((_req, res) => sendJson(res, 200, BLOB), { retry: { maxRetries: 0 } });
    const err = await client.blobs
      .upload(
        { name: "a", recordType: "csv" },
        () =>
          (async function* () {
            yield Buffer.from("a\n");
            await new Promise((r) => setTimeout(r, 3000));
            yield Buffer.from("1\n");
          })(),
        { timeoutMs: 300 },
      )
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
  });
});
