/**
 * The client side of the service tests: token exchange, a thin model API client, the
 * reference service's record shapes. Services are started by test/harness/service-starter.ts
 * (`Harness` here is its `ServiceStarter`); every helper that takes a URL also takes
 * the `Target` of an injected service.
 */
import { z } from "zod";
import {
  isTerminalStatus,
  jobResult,
  jobError,
  jobEvent,
  oauthError,
  tokenResponse,
  type BlobRecord,
  type OAuthError,
  type TokenResponse,
} from "../../src/core/contract/index.js";
import { targetOf, type AppCredentials, type FetchLike, type Target } from "../harness/service-starter.js";

export {
  ALL_SCOPES,
  ServiceStarter as Harness,
  type AppCredentials,
  type InjectedService,
  type Target,
} from "../harness/service-starter.js";

/**
 * A token endpoint reply. The body is a token (200), an OAuth error or a problem: read
 * it with `granted`, `expectOAuthError` or `expectProblem`.
 */
export async function exchange(
  target: string | Target,
  form: Record<string, string>,
  contentType = "application/x-www-form-urlencoded",
): Promise<Reply> {
  const { url, fetch } = targetOf(target);
  const response = await fetch(`${url}/api/authorization/exchange`, {
    method: "POST",
    headers: { "content-type": contentType },
    body: contentType.includes("json") ? JSON.stringify(form) : new URLSearchParams(form),
  });
  const body: unknown = await response.json();
  return { status: response.status, headers: response.headers, body };
}

/** The RFC 6749 error body of a token endpoint reply with `status`; another status throws. */
export function expectOAuthError(reply: Reply, status: number): OAuthError {
  if (reply.status !== status)
    throw new Error(`expected ${status}, got ${reply.status}: ${JSON.stringify(reply.body)}`);
  return oauthError.parse(reply.body);
}

/** The token of a 200 reply from `exchange`; any other reply throws. */
export function granted(reply: Reply): TokenResponse {
  if (reply.status !== 200) throw new Error(`token exchange failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  return tokenResponse.parse(reply.body);
}

export async function tokenFor(target: string | Target, app: AppCredentials, scope = ""): Promise<string> {
  const reply = await exchange(target, {
    grant_type: "client_credentials",
    client_id: app.clientId,
    client_secret: app.clientSecret,
    scope,
  });
  return granted(reply).access_token;
}

export interface Reply<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/**
 * The body of a reply that is not an error, parsed by `schema` (a contract schema, or
 * the shape the test expects); a 4xx or 5xx reply throws with its body.
 */
export function json<S extends z.ZodType>(schema: S, reply: Reply): z.output<S> {
  if (reply.status >= 400)
    throw new Error(`expected a reply that is not an error, got ${reply.status}: ${JSON.stringify(reply.body)}`);
  return schema.parse(reply.body);
}

/**
 * A job record as the reference service sends it: every field of docs/contract.md present, as
 * sent. (The contract's jobRecord normalizes what other services send; these tests look
 * at the reference service's own.)
 */
export const referenceJob = z.looseObject({
  id: z.string(),
  model_id: z.string(),
  job_type: z.string(),
  status: z.string(),
  progress: z.number(),
  phase: z.string().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  attempts: z.number().int(),
  error: jobError.nullable(),
  request: z.unknown(),
  revision: z.number().int(),
  events: z.array(jobEvent),
});
export type ReferenceJob = z.infer<typeof referenceJob>;

/** A blob record as the reference service sends it: every field of docs/contract.md present, as sent. */
export const referenceBlob = z.looseObject({
  id: z.string(),
  model_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  record_type: z.string(),
  access_tier: z.string(),
  tags: z.array(z.string()),
  content_type: z.string(),
  size_bytes: z.number().int(),
  sha256: z.string(),
  encrypted: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ReferenceBlob = z.infer<typeof referenceBlob>;

/** The output blobs' records of a job result reply; a result without them throws. */
export function outputsOf(reply: Reply): BlobRecord[] {
  const { outputs } = json(jobResult, reply);
  if (!outputs) throw new Error(`a result without outputs: ${JSON.stringify(reply.body)}`);
  return outputs;
}

/** A thin client of the model API for tests: JSON in, JSON (or bytes) out. */
export class Api {
  readonly url: string;
  /** The fetch that reaches the service (`app.inject` for an injected one). */
  readonly fetch: FetchLike;

  constructor(
    target: string | Target,
    readonly token: string | undefined,
    readonly modelId: string,
  ) {
    ({ url: this.url, fetch: this.fetch } = targetOf(target));
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return this.token ? { authorization: `Bearer ${this.token}`, ...extra } : extra;
  }

  /** The reply's body is its JSON, or its text when it is not JSON: read it with `json(schema, reply)`. */
  async call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
    const init: RequestInit = { method, headers: this.headers(headers) };
    if (body !== undefined) {
      init.body = typeof body === "string" ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)["content-type"] ??= "application/json";
    }
    const response = await this.fetch(`${this.url}${path}`, init);
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, headers: response.headers, body: parsed };
  }

  blobPath(blobId?: string, action?: string, modelId = this.modelId): string {
    return `/api/model/${modelId}/shared/blob${blobId ? `/${blobId}` : ""}${action ? `/${action}` : ""}`;
  }

  async upload(
    bytes: Uint8Array | string,
    fields: Record<string, string | string[]> = { Name: "data.csv", RecordType: "csv", AccessTier: "hot" },
    options: { method?: string; blobId?: string; headers?: Record<string, string>; modelId?: string } = {},
  ): Promise<Reply> {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields))
      for (const v of Array.isArray(value) ? value : [value]) form.append(name, v);
    form.append("File", new Blob([bytes]), "data");
    const path = options.blobId
      ? this.blobPath(options.blobId, "update", options.modelId)
      : this.blobPath(undefined, "upload", options.modelId);
    const response = await this.fetch(`${this.url}${path}`, {
      method: options.method ?? (options.blobId ? "PUT" : "POST"),
      headers: this.headers(options.headers),
      body: form,
    });
    return { status: response.status, headers: response.headers, body: await response.json() };
  }

  async download(blobId: string, headers: Record<string, string> = {}): Promise<Reply<Buffer>> {
    const response = await this.fetch(`${this.url}${this.blobPath(blobId, "download")}`, {
      headers: this.headers(headers),
    });
    return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
  }

  async waitForJob(
    jobId: string,
    until: (job: ReferenceJob) => boolean = (j) => isTerminalStatus(j.status),
    timeoutMs = 60_000,
  ): Promise<ReferenceJob> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const reply = await this.call("GET", `/api/job/${jobId}/get`);
      if (reply.status !== 200) throw new Error(`job get: ${reply.status} ${JSON.stringify(reply.body)}`);
      const job = referenceJob.parse(reply.body);
      if (until(job)) return job;
      if (Date.now() > deadline) throw new Error(`job ${jobId} still ${job.status} after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

export function preprocessingBody(
  modelId: string,
  blobId: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    model_id: modelId,
    input_blob_id: blobId,
    preprocessing_type: "StandardScaler",
    output: [{ name: "out.csv" }],
    ...extra,
  };
}

/**
 * A problem+json body as the reference service sends it (RFC 7807): every member present,
 * `errors` on validation errors. Unknown members are kept.
 */
export const referenceProblem = z.looseObject({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  instance: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ReferenceProblem = z.infer<typeof referenceProblem>;

/** The problem of a reply with `status` and content type application/problem+json; anything else throws. */
export function expectProblem(reply: Reply, status: number): ReferenceProblem {
  const type = reply.headers.get("content-type") ?? "";
  if (reply.status !== status || !type.startsWith("application/problem+json")) {
    throw new Error(`expected ${status} problem+json, got ${reply.status} ${type}: ${JSON.stringify(reply.body)}`);
  }
  const body = z.record(z.string(), z.unknown()).parse(reply.body);
  for (const field of ["type", "title", "status", "detail", "instance"]) {
    if (body[field] === undefined) throw new Error(`problem lacks '${field}': ${JSON.stringify(body)}`);
  }
  if (body.status !== status) throw new Error(`problem status ${JSON.stringify(body.status)} != ${status}`);
  if (JSON.stringify(body).includes("    at ")) throw new Error("problem contains a stack trace");
  return referenceProblem.parse(body);
}

/** A CSV of `rows` rows and four numeric columns, big enough that a job runs for a while. */
export function numericCsv(rows: number): Buffer {
  // Built from one repeated block of 10,000 rows: fast to make even for a million rows.
  const blockRows = Math.min(rows, 10_000);
  const lines: string[] = [];
  for (let i = 0; i < blockRows; i++) lines.push(`${i},${(i * 7919) % 10007}.25,${Math.sin(i).toFixed(6)},${i % 13}\n`);
  const block = Buffer.from(lines.join(""));
  const parts = [Buffer.from("a,b,c,d\n")];
  for (let done = 0; done < rows; done += blockRows) {
    const take = Math.min(blockRows, rows - done);
    parts.push(take === blockRows ? block : Buffer.from(lines.slice(0, take).join("")));
  }
  return Buffer.concat(parts);
}
