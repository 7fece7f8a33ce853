/**
 * 202 Accepted and redirects: followed where safe, the token only to the
 * service's own origin; error bodies of any shape become typed errors with a snippet.
 */
import { afterEach, describe, expect, it } from "vitest";
import { MdpsClient } from "../../src/client/client.js";
import { bodySnippet } from "../../src/client/error-factory.js";
import { InternalServerError, NotFoundError, RateLimitError } from "../../src/client/errors.js";
import { sendJson, startFixture, type Fixture, type Handler } from "./http-fixture.js";

const MODEL = "0b6b5a0e-4d5e-4c1e-9a39-2f3c1d0e7a11";
const JOB = { id: "j-1", status: "Running" };
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

async function serve(api: Handler): Promise<{ fixture: Fixture; client: MdpsClient }> {
  const fixture = await startFixture((req, res, i) => {
    if (req.path === "/api/authorization/exchange") {
      sendJson(res, 200, { access_token: "t1", token_type: "Bearer", expires_in: 3600 });
      return;
    }
    return api(req, res, i);
  });
  const client = MdpsClient.create({
    baseUrl: fixture.url,
    clientId: "app",
    clientSecret: "secret",
    modelId: MODEL,
    env: {},
    configFile: false,
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
  });
  open.push(client, fixture);
  return { fixture, client };
}

const calls = (f: Fixture) => f.requests.filter((r) => r.path !== "/api/authorization/exchange");

describe("202 Accepted and redirects", () => {
  it("a 202 without the record in its body is followed to Location", async () => {
    const { fixture, client } = await serve((req, res) => {
      if (req.method === "POST") {
        res.writeHead(202, { location: "/api/ml/preprocessing/job/j-1/get" }).end();
        return;
      }
      sendJson(res, 200, JOB);
    });
    const record = await client.preprocessing.send({
      model_id: MODEL,
      input_blob_id: MODEL,
      preprocessing_type: "StandardScaler",
      output: [{ name: "o" }],
    });
    expect(record).toMatchObject({ id: "j-1", status: "Running" });
    expect(calls(fixture).map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /api/ml/preprocessing/job/send",
      "GET /api/ml/preprocessing/job/j-1/get",
    ]);
  });

  it("a GET follows 301/302/307/308, with the token on the same origin only", async () => {
    const elsewhere = await startFixture((_req, res) => sendJson(res, 200, JOB));
    open.push(elsewhere);
    const { fixture, client } = await serve((req, res) => {
      if (req.path === "/api/job/a/get") res.writeHead(301, { location: "/api/job/b/get" }).end();
      else if (req.path === "/api/job/b/get") res.writeHead(307, { location: `${elsewhere.url}/moved` }).end();
      else sendJson(res, 404, { message: "no" });
    });
    expect(await client.jobs.get("a")).toMatchObject(JOB);
    expect(calls(fixture).map((r) => r.path)).toEqual(["/api/job/a/get", "/api/job/b/get"]);
    expect(calls(fixture).every((r) => r.headers.authorization === "Bearer t1")).toBe(true);
    expect(elsewhere.requests).toHaveLength(1);
    expect(elsewhere.requests[0]!.headers.authorization).toBeUndefined();
  });

  it("a POST is not re-sent to another origin; a 303 becomes a GET", async () => {
    const { fixture, client } = await serve((req, res) => {
      if (req.path === "/api/job/send") res.writeHead(303, { location: "/api/job/j-1/get" }).end();
      else if (req.method === "GET") sendJson(res, 200, JOB);
      else sendJson(res, 404, { message: "no" });
    });
    const record = await client.jobs.send({ job_id: MODEL, model_id: MODEL, job_type: "preprocessing", payload: {} });
    expect(record.id).toBe("j-1");
    expect(calls(fixture).map((r) => `${r.method} ${r.path}`)).toEqual(["POST /api/job/send", "GET /api/job/j-1/get"]);
  });
});

describe("error bodies of any shape", () => {
  it("{message} JSON, a request id, and Retry-After as an HTTP date", async () => {
    const { client } = await serve((req, res) => {
      if (req.path.endsWith("/missing/get")) {
        res.writeHead(404, { "content-type": "application/json", "x-request-id": "req-42" });
        res.end(JSON.stringify({ message: "job missing not found" }));
        return;
      }
      res.writeHead(429, { "retry-after": new Date(Date.now() + 120_000).toUTCString() });
      res.end("slow down");
    });
    const missing = await client.jobs.get("missing").catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect((missing as NotFoundError).message).toContain("job missing not found");
    expect((missing as NotFoundError).requestId).toBe("req-42");
    const limited = await client.jobs.get("other").catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(RateLimitError);
    expect((limited as RateLimitError).retryAfterMs).toBeGreaterThan(100_000);
    expect((limited as RateLimitError).message).toContain("plain text");
  });

  it("an HTML 502 and an empty 502 name what came", async () => {
    let n = 0;
    const { client } = await serve((_req, res) => {
      n += 1;
      if (n <= 4)
        res
          .writeHead(502, { "content-type": "text/html" })
          .end("<html><head><title>x</title></head><body><h1>502 Bad Gateway</h1></body></html>");
      else res.writeHead(502).end();
    });
    const html = await client.jobs.get("a").catch((e: unknown) => e);
    expect(html).toBeInstanceOf(InternalServerError);
    expect((html as Error).message).toContain('"502 Bad Gateway"'.slice(1, -1));
    expect((html as Error).message).toContain("likely from a proxy or gateway");
    const empty = await client.jobs.get("b").catch((e: unknown) => e);
    expect((empty as Error).message).toContain("The answer had an empty body");
    expect(bodySnippet("x".repeat(500))).toHaveLength(200);
    expect(bodySnippet({ error: { message: "nested" } })).toBe("nested");
  });
});
