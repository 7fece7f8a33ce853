/**
 * Property-based requests against a running `mdps serve` (fast-check): every endpoint,
 * with generated paths, ids, query values, headers, JSON bodies, multipart shapes,
 * Range, If-Match and framing. The properties: no 5xx, an answer within 5 s, every
 * error application/problem+json with no stack, file path or SQL in it.
 */
import fc from "fast-check";
import { Agent, request } from "undici";
import { multipartBody, rawRequest } from "./serve-harness.js";

export interface FuzzTarget {
  url: string;
  port: number;
  dataDir: string;
  modelId: string;
  token: string;
  blobId: string;
  jobId: string;
}

export interface FuzzFigures {
  requests: number;
  byStatus: Record<string, number>;
  serverErrors: number;
  hangs: number;
  /** Descriptions of the requests that broke a property (at most 20 kept). */
  failures: string[];
}

const HANG_MS = 5000;
const UUID = "00000000-0000-4000-8000-000000000000";

const ids = (t: FuzzTarget) =>
  fc.oneof(
    fc.constantFrom(t.blobId, t.jobId, t.modelId, UUID, "", "..", "%2e%2e", "%00", "a".repeat(300), "constructor"),
    fc.uuid(),
    fc.string({ maxLength: 40 }).map(encodeURIComponent),
  );

const pathTemplates = [
  "/api/shared/health",
  "/api/model/{m}/shared/blob/upload",
  "/api/model/{m}/shared/blob/{b}/update",
  "/api/model/{m}/shared/blob/{b}/download",
  "/api/model/{m}/shared/blob/{b}/delete",
  "/api/model/{m}/shared/blob/{b}",
  "/api/model/{m}/shared/blob/list",
  "/api/job/send",
  "/api/ml/preprocessing/job/send",
  "/api/job/{j}/get",
  "/api/job/{j}/logs",
  "/api/job/{j}/result",
  "/api/job/{j}/cancel",
  "/api/ml/preprocessing/job/{j}/get",
  "/api/ml/preprocessing/job/{j}/result",
  "/api/authorization/exchange",
  "/{x}",
];

const jsonValue = fc.jsonValue({ maxDepth: 3 });

function jsonBodies(t: FuzzTarget) {
  const job = fc.record(
    {
      model_id: fc.oneof(fc.constant(t.modelId), jsonValue),
      input_blob_id: fc.oneof(fc.constant(t.blobId), jsonValue),
      preprocessing_type: fc.oneof(
        fc.constantFrom("StandardScaler", "PowerTransformer", "QuantileTransformer", "Normalizer", "nope"),
        jsonValue,
      ),
      params: fc.oneof(fc.dictionary(fc.string({ maxLength: 12 }), jsonValue, { maxKeys: 4 }), jsonValue),
      columns: fc.oneof(fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }), jsonValue),
      output: fc.oneof(fc.constant([{ name: "o.csv" }]), jsonValue),
      constructor: jsonValue,
      ["__proto__"]: jsonValue,
    },
    { requiredKeys: [] },
  );
  return fc.oneof(
    job.map((b) => JSON.stringify(b)),
    jsonValue.map((v) => JSON.stringify(v)),
    fc.string({ maxLength: 200 }),
    fc.constantFrom("{", '{"a":', "[]", "null", '{"__proto__":{"x":1}}', "\u0000", '{"constructor":{"prototype":1}}'),
  );
}

function multipartBodies() {
  const names = fc.constantFrom("Name", "RecordType", "AccessTier", "Description", "Tags", "File", "x", "toString", "");
  const field = fc.tuple(names, fc.string({ maxLength: 30 }));
  return fc.record({
    fields: fc.array(field, { maxLength: 90 }),
    file: fc.option(fc.oneof(fc.string({ maxLength: 200 }), fc.constant("a,b\n1,2\n3,4\n")), { nil: undefined }),
    fileFirst: fc.boolean(),
    cutInsideFile: fc.boolean(),
    boundary: fc.constantFrom("b0undary", "x", "a".repeat(70)),
    declaredBoundary: fc.constantFrom("same", "none", "other"),
  });
}

const headerValue = fc.oneof(
  fc.string({ maxLength: 60 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
  fc.constantFrom("bytes=0-0", "bytes=5-1", "bytes=-5", "bytes=0-", "bytes=x", "bytes=0-1,2-3", '"x"', "*", 'W/"1"'),
);

function requests(t: FuzzTarget) {
  const path = fc
    .tuple(fc.constantFrom(...pathTemplates), ids(t), ids(t), ids(t), ids(t), fc.nat(9))
    .map(([tpl, m, b, j, x, n]) =>
      tpl
        .replace("{m}", n < 7 ? t.modelId : m)
        .replace("{b}", b)
        .replace("{j}", j)
        .replace("{x}", x),
    );
  const query = fc.option(
    fc.dictionary(
      fc.constantFrom("access_token", "client_secret", "page", "limit", "tag", "since", "x", "stream"),
      fc.string({ maxLength: 20 }),
      { maxKeys: 3 },
    ),
    { nil: undefined },
  );
  const auth = fc.constantFrom("good", "none", "garbage", "basic");
  const method = fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS");
  const headers = fc.dictionary(
    fc.constantFrom(
      "range",
      "if-match",
      "if-none-match",
      "accept",
      "x-request-id",
      "content-encoding",
      "x-forwarded-for",
    ),
    headerValue,
    { maxKeys: 3 },
  );
  const body = fc.oneof(
    { weight: 3, arbitrary: jsonBodies(t).map((b) => ({ kind: "json" as const, text: b })) },
    { weight: 2, arbitrary: multipartBodies().map((m) => ({ kind: "multipart" as const, m })) },
    { weight: 1, arbitrary: fc.constant({ kind: "none" as const }) },
    {
      weight: 1,
      arbitrary: fc
        .string({ maxLength: 100 })
        .map((s) => ({ kind: "form" as const, text: `grant_type=client_credentials&client_id=${s}` })),
    },
  );
  const framing = fc.constantFrom("normal", "normal", "normal", "normal", "short-length", "chunked-cut", "half-close");
  return fc.record({ path, query, auth, method, headers, body, framing });
}

type Generated = ReturnType<typeof requests> extends fc.Arbitrary<infer T> ? T : never;

function authHeader(t: FuzzTarget, auth: string): Record<string, string> {
  switch (auth) {
    case "good":
      return { authorization: `Bearer ${t.token}` };
    case "garbage":
      return { authorization: `Bearer ${t.token.slice(0, -3)}zzz` };
    case "basic":
      return { authorization: "Basic Og==" };
    default:
      return {};
  }
}

function encode(g: Generated): { body: Buffer; contentType?: string } {
  switch (g.body.kind) {
    case "none":
      return { body: Buffer.alloc(0) };
    case "json":
      return { body: Buffer.from(g.body.text), contentType: "application/json" };
    case "form":
      return { body: Buffer.from(g.body.text), contentType: "application/x-www-form-urlencoded" };
    case "multipart": {
      const m = g.body.m;
      const declared =
        m.declaredBoundary === "none"
          ? "multipart/form-data"
          : `multipart/form-data; boundary=${m.declaredBoundary === "same" ? m.boundary : "other"}`;
      return {
        body: multipartBody(m.boundary, m.fields, m.file, { fileFirst: m.fileFirst, cutInsideFile: m.cutInsideFile }),
        contentType: declared,
      };
    }
  }
}

/** What an error body must never show: a stack frame, a file path, SQL. */
const LEAKS = [
  /\bat .+:\d+:\d+/,
  /\/(tmp|work|home|root|usr)\//,
  /node_modules/,
  /\.ts\b|\.js\b/,
  /SQLITE|SELECT |INSERT |sqlite/i,
];

function checkReply(
  status: number,
  contentType: string,
  body: string,
  method: string,
  path: string,
): string | undefined {
  if (status >= 500) return `status ${status}: ${body.slice(0, 300)}`;
  // Outside /api/ is the portal, whose error pages are HTML for people.
  const portalPage = !path.startsWith("/api/") && contentType.startsWith("text/html");
  if (status >= 400 && method !== "HEAD" && !portalPage) {
    if (!contentType.startsWith("application/problem+json") && !contentType.startsWith("application/json"))
      return `error ${status} with content-type ${contentType}`;
    for (const leak of LEAKS) if (leak.test(body)) return `error ${status} body matches ${leak}: ${body.slice(0, 300)}`;
    if (contentType.startsWith("application/json")) {
      // The token endpoint answers RFC 6749 errors ({error, error_description}); all else problem+json.
      let parsed: Record<string, unknown>;
      try {
        parsed = JSON.parse(body) as Record<string, unknown>;
      } catch {
        return `error ${status} with a body that is not JSON: ${body.slice(0, 300)}`;
      }
      if (typeof parsed.error !== "string") return `error ${status} as JSON that is not an OAuth error`;
    }
  }
  return undefined;
}

async function send(t: FuzzTarget, g: Generated, agent: Agent): Promise<{ status: number; problem?: string }> {
  const qs = g.query ? `?${new URLSearchParams(g.query).toString()}` : "";
  const url = `${g.path}${qs}`;
  const { body, contentType } = encode(g);
  const headers: Record<string, string> = { ...g.headers, ...authHeader(t, g.auth) };
  if (contentType) headers["content-type"] = contentType;
  // undici refuses some headers itself (expect, a content-encoding it cannot apply): raw bytes then.
  const raw = "expect" in headers || "content-encoding" in headers;
  if (raw || g.framing !== "normal" || g.path.includes("%00") || /[^\x21-\x7e]/.test(url)) {
    const head =
      `${g.method} ${url.replace(/[^\x21-\x7e]/g, "_")} HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
      Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join("") +
      (g.framing === "chunked-cut"
        ? "Transfer-Encoding: chunked\r\n\r\n"
        : `Content-Length: ${body.length + (g.framing === "short-length" ? 10 : 0)}\r\n\r\n`);
    const payload =
      g.framing === "chunked-cut" ? Buffer.concat([Buffer.from(`${(body.length + 7).toString(16)}\r\n`), body]) : body;
    const reply = await rawRequest(t.port, head, payload, {
      halfClose: g.framing !== "normal",
      timeoutMs: g.framing === "normal" ? HANG_MS : 1500,
    });
    // A request cut short may go unanswered (the server waits for the rest until the
    // client leaves): that is not a hang; an answered one must keep the properties.
    if (reply.timedOut && g.framing === "normal" && reply.status === 0)
      return { status: -1, problem: `no answer within 5 s: ${head.slice(0, 300)}` };
    if (reply.status === 0) return { status: 0 };
    return {
      status: reply.status,
      problem: checkReply(reply.status, reply.headers["content-type"] ?? "", reply.body, g.method, g.path),
    };
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), HANG_MS);
  try {
    const response = await request(`${t.url}${url}`, {
      method: g.method as "GET",
      headers,
      body: ["GET", "HEAD"].includes(g.method) ? null : body,
      dispatcher: agent,
      signal: controller.signal,
    });
    const text = await response.body.text();
    return {
      status: response.statusCode,
      problem: checkReply(response.statusCode, String(response.headers["content-type"] ?? ""), text, g.method, g.path),
    };
  } catch (err) {
    if (controller.signal.aborted) return { status: -1, problem: "no answer within 5 s" };
    return { status: 0, problem: `transport error ${String(err)}` };
  } finally {
    clearTimeout(timer);
  }
}

/** Sends `count` generated requests, `concurrency` at a time, and counts what came back. */
export async function fuzz(t: FuzzTarget, count: number, seed: number, concurrency = 8): Promise<FuzzFigures> {
  const figures: FuzzFigures = { requests: 0, byStatus: {}, serverErrors: 0, hangs: 0, failures: [] };
  const samples = fc.sample(requests(t), { numRuns: count, seed });
  const agent = new Agent({ connections: concurrency, keepAliveTimeout: 1000 });
  let next = 0;
  const worker = async () => {
    while (next < samples.length) {
      const g = samples[next++]!;
      const { status, problem } = await send(t, g, agent);
      figures.requests += 1;
      figures.byStatus[status] = (figures.byStatus[status] ?? 0) + 1;
      if (status >= 500) figures.serverErrors += 1;
      if (status === -1) figures.hangs += 1;
      if (problem && figures.failures.length < 20)
        figures.failures.push(`${g.method} ${g.path} [${g.framing}, ${g.body.kind}]: ${problem}`);
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    await agent.close();
  }
  return figures;
}
