/**
 * One HTTP call with everything around it: bearer token (refreshed once on 401),
 * retries with backoff for idempotent calls, a per-attempt timeout, the caller's
 * AbortSignal, and error responses turned into typed errors.
 */
import { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { request, type Dispatcher } from "undici";
import type { z } from "zod";
import { makeAPIError, makeOAuthError, requestIdOf } from "./error-factory.js";
import { AttemptSignal, DEFAULT_CONNECTION_HINT } from "./attempt-signal.js";
import { AbortError, ConnectionError, MdpsError, UnexpectedResponseError } from "./errors.js";
import { unreadableAnswer } from "./unreadable-answer.js";
import {
  DEFAULT_RETRY_POLICY,
  parseRetryAfter,
  retryDelayMs,
  shouldRetryConnectionError,
  shouldRetryStatus,
  type RetryPolicy,
} from "./retry-timing.js";
import { createDispatcher, type NetworkOptions } from "./network.js";
import { boundedBody, declaredLength, downloadDeadlineMs, type TransferLimits } from "./bounded-body.js";
import type { Secret } from "./secret.js";
import type { TokenCache } from "./token-cache.js";

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";
export type RequestBody = string | Uint8Array | Readable;

export interface TransportOptions extends NetworkOptions {
  /**
   * undici dispatcher (Agent, MockAgent, ProxyAgent...); default: a keep-alive pool owned
   * by the transport that honours HTTPS_PROXY / HTTP_PROXY / NO_PROXY and extra CAs
   * (`proxy`, `ca`; see src/client/network.ts).
   */
  readonly dispatcher?: Dispatcher | undefined;
  /** Per-attempt time limit of a JSON call, ms. Default 60 000. */
  readonly timeoutMs?: number | undefined;
  /** Per-attempt limit for uploads and downloads (until the response starts), ms. Default 600 000. */
  readonly transferTimeoutMs?: number | undefined;
  readonly retry?: Partial<RetryPolicy> | undefined;
  /** Called before each retry; for logging. */
  readonly onRetry?: ((info: RetryInfo) => void) | undefined;
  readonly userAgent?: string | undefined;
  /**
   * What a ConnectionError tells the user to check. Default: that the service runs and
   * MDPS_BASE_URL / MDPS_AUTH_URL are right; Session.local() names its data dir instead.
   */
  readonly connectionHint?: string | undefined;
}

export interface RetryInfo {
  readonly call: string;
  readonly retry: number;
  readonly delayMs: number;
  readonly reason: string;
}

export interface CallOptions {
  readonly signal?: AbortSignal | undefined;
  /** Overrides the transport's per-attempt timeout, ms. */
  readonly timeoutMs?: number | undefined;
  /**
   * Overall limit of a download, ms, until its last byte (other calls ignore it). Default:
   * two minutes plus a second per 256 KiB of its size (src/client/bounded-body.ts).
   */
  readonly deadlineMs?: number | undefined;
}

export interface RequestSpec extends CallOptions {
  readonly method: HttpMethod;
  readonly url: string;
  readonly query?: Readonly<Record<string, string | number | undefined>> | undefined;
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** A factory, so a retry can send the body again (a stream cannot be replayed). */
  readonly body?: (() => RequestBody) | undefined;
  /** Safe to send twice: enables retries on 5xx and connection errors. */
  readonly idempotent: boolean;
  /** Not idempotent, but sent again after a 503 with `Retry-After` (../client/retry-timing.ts). */
  readonly retryRefused?: boolean | undefined;
  /** Adds `Authorization: Bearer`; omitted only for the token endpoint. */
  readonly tokens?: TokenCache | undefined;
  /** Token endpoint: errors are RFC 6749 bodies. */
  readonly oauth?: boolean | undefined;
  /** Upload or download: uses the transfer timeout. */
  readonly transfer?: boolean | undefined;
  /** Sees a JSON call's successful answer's status and headers (a send's `Location`, an update's `ETag`). */
  readonly onHeaders?: ((headers: Readonly<Record<string, string>>, status: number) => void) | undefined;
}

export interface StreamResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Readable;
}

export class Transport {
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  readonly #policy: RetryPolicy;
  readonly #timeoutMs: number;
  readonly #transferTimeoutMs: number;
  readonly #onRetry: ((info: RetryInfo) => void) | undefined;
  readonly #userAgent: string;
  readonly #connectionHint: string;

  constructor(options: TransportOptions = {}) {
    this.#ownsDispatcher = options.dispatcher === undefined;
    this.#dispatcher = options.dispatcher ?? createDispatcher(options);
    this.#policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.#timeoutMs = options.timeoutMs ?? 60_000;
    this.#transferTimeoutMs = options.transferTimeoutMs ?? 600_000;
    this.#onRetry = options.onRetry;
    this.#userAgent = options.userAgent ?? "mdps-client";
    this.#connectionHint = options.connectionHint ?? DEFAULT_CONNECTION_HINT;
  }

  /** Sends the call and parses the JSON body with `schema` (unknown fields kept). */
  async json<S extends z.ZodType>(spec: RequestSpec, schema: S): Promise<z.output<S>> {
    return this.#send(spec, async (res, call) => {
      spec.onHeaders?.(res.headers, res.status);
      const text = await res.body.text();
      const requestId = requestIdOf(res.headers);
      const location = res.headers.location;
      if (res.status === 202 && location !== undefined) {
        // Accepted, with the resource's address: its body when that is the resource,
        // else the resource read from Location (same origin only: it gets the token).
        const body = parseJson(text);
        const parsed = body === undefined ? undefined : schema.safeParse(body);
        if (parsed?.success) return parsed.data;
        const target = new URL(location, spec.url);
        if (target.origin === new URL(spec.url).origin) {
          return this.json(
            { method: "GET", url: target.toString(), idempotent: true, tokens: spec.tokens, signal: spec.signal },
            schema,
          );
        }
      }
      let data: unknown;
      try {
        // An empty body (a bare 200 to a delete) is undefined, for the schema to accept or refuse.
        data = text.trim() === "" ? undefined : JSON.parse(text);
      } catch (error) {
        throw new UnexpectedResponseError(
          `${call} returned ${res.status} with a body that is not JSON. Check that the URL points at an mdps service.`,
          res.status,
          requestId,
          { cause: error },
        );
      }
      const parsed = schema.safeParse(data);
      if (!parsed.success) {
        const answer = { call, method: spec.method, status: res.status, requestId, body: data, error: parsed.error };
        throw unreadableAnswer(answer);
      }
      return parsed.data;
    });
  }

  /**
   * Sends the call and hands back the response body as a stream, unread, cut off with an
   * error past `maxBytes` or its `Content-Length` and past the deadline (./bounded-body.ts).
   */
  async stream(spec: RequestSpec & TransferLimits): Promise<StreamResponse> {
    const startedAt = Date.now();
    return this.#send({ ...spec, transfer: true }, (res, call) => {
      const declared = declaredLength(res.headers);
      const limit = [spec.maxBytes, declared].filter((n): n is number => n !== undefined).sort((a, b) => a - b)[0];
      const limitSays = limit === spec.maxBytes ? "the size its record gives" : "its Content-Length";
      const deadlineMs = spec.deadlineMs ?? downloadDeadlineMs(limit);
      const body = boundedBody(res.body, {
        call,
        status: res.status,
        requestId: requestIdOf(res.headers),
        maxBytes: limit,
        limitSays,
        startedAt,
        deadlineMs,
      });
      return Promise.resolve({ status: res.status, headers: res.headers, body });
    });
  }

  async close(): Promise<void> {
    if (this.#ownsDispatcher) await this.#dispatcher.close();
  }

  async #send<T>(spec: RequestSpec, consume: (res: Response, call: string) => Promise<T>): Promise<T> {
    const call = `${spec.method} ${new URL(spec.url).pathname}`;
    const origin = new URL(spec.url).origin;
    // A redirect changes where (and perhaps how) the next attempt goes.
    let target: RedirectTarget = { url: withQuery(spec.url, spec.query), method: spec.method, body: spec.body };
    let redirects = 0;
    const timeoutMs = spec.timeoutMs ?? (spec.transfer ? this.#transferTimeoutMs : this.#timeoutMs);
    let retry = 0;
    let authRetried = false;
    for (;;) {
      const url = target.url;
      throwIfAborted(spec.signal);
      let token: Secret | undefined;
      try {
        // The token goes to the service's own origin only, never to where a redirect points elsewhere.
        token = spec.tokens && new URL(url).origin === origin ? await spec.tokens.get(spec.signal) : undefined;
      } catch (error) {
        throw asAbort(error, spec.signal);
      }
      const attempt = new AttemptSignal(spec.signal, timeoutMs, this.#connectionHint);
      let outcome: { kind: "done"; value: T } | { kind: "retry"; delayMs: number; reason: string } | undefined;
      try {
        const body = target.body?.();
        // A failing body (unreadable file, encryption error) must surface as itself,
        // not as the connection error undici reports when the upload stops.
        let bodyError: Error | undefined;
        if (body instanceof Readable) body.once("error", (error) => (bodyError ??= error));
        let raw: Dispatcher.ResponseData;
        try {
          raw = await request(url, {
            method: target.method,
            dispatcher: this.#dispatcher,
            headers: this.#headers(spec, token),
            body: body ?? null,
            signal: attempt.signal,
            headersTimeout: timeoutMs,
            bodyTimeout: timeoutMs,
          });
        } catch (error) {
          if (body instanceof Readable) body.destroy();
          // (Unless the attempt was stopped: undici then destroys the body itself.)
          if (bodyError !== undefined && !attempt.signal.aborted) throw bodyError;
          const mapped = attempt.translate(error, call, url);
          const code = (error as { code?: string }).code;
          if (mapped instanceof ConnectionError && shouldRetryConnectionError(code, spec.idempotent)) {
            const delayMs = retryDelayMs(retry, this.#policy, undefined);
            if (retry < this.#policy.maxRetries && delayMs !== undefined) {
              outcome = { kind: "retry", delayMs, reason: mapped.message };
            }
          }
          if (outcome === undefined) throw mapped;
        }
        if (outcome === undefined) {
          const res: Response = { status: raw!.statusCode, headers: flatHeaders(raw!.headers), body: raw!.body };
          const next = redirects < MAX_REDIRECTS ? redirectTarget(target, res) : undefined;
          if (next !== undefined) {
            await res.body.dump().catch(() => undefined);
            target = next;
            redirects += 1;
            continue;
          }
          if (res.status < 400) {
            if (spec.transfer) res.body.once("close", () => attempt.release());
            try {
              const value = await consume(res, call);
              outcome = { kind: "done", value };
            } catch (error) {
              throw error instanceof MdpsError ? error : attempt.translate(error, call, url);
            }
          } else {
            const errorBody = await readErrorBody(res.body).catch(() => undefined);
            if (res.status === 401 && token !== undefined && !authRetried) {
              // The token was refused (expired early, revoked, server restarted): fetch a
              // new one and try once more; a second 401 is the caller's to handle.
              spec.tokens?.invalidate(token);
              authRetried = true;
              continue;
            }
            const error = (spec.oauth ? makeOAuthError : makeAPIError)({
              status: res.status,
              body: errorBody,
              headers: res.headers,
              call,
            });
            const refusals = { retryAfter: "retry-after" in res.headers, retryRefused: spec.retryRefused === true };
            const delayMs = shouldRetryStatus(res.status, spec.idempotent, refusals)
              ? retryDelayMs(retry, this.#policy, parseRetryAfter(res.headers["retry-after"], Date.now()))
              : undefined;
            if (retry >= this.#policy.maxRetries || delayMs === undefined) throw error;
            outcome = { kind: "retry", delayMs, reason: `${res.status}` };
          }
        }
      } finally {
        attempt.done(spec.transfer === true && outcome?.kind === "done");
      }
      if (outcome.kind === "done") return outcome.value;
      this.#onRetry?.({ call, retry: retry + 1, delayMs: outcome.delayMs, reason: outcome.reason });
      try {
        await sleep(outcome.delayMs, undefined, spec.signal ? { signal: spec.signal } : undefined);
      } catch (error) {
        throw asAbort(error, spec.signal);
      }
      retry += 1;
    }
  }

  #headers(spec: RequestSpec, token: Secret | undefined): Record<string, string> {
    const headers: Record<string, string> = {
      "user-agent": this.#userAgent,
      accept: "application/json",
      ...spec.headers,
    };
    if (token !== undefined) headers.authorization = `Bearer ${token.reveal()}`;
    return headers;
  }
}

interface Response {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Dispatcher.ResponseData["body"];
}

const MAX_REDIRECTS = 5;

interface RedirectTarget {
  readonly url: string;
  readonly method: HttpMethod;
  readonly body: RequestSpec["body"];
}

/**
 * Where a redirect leads, when following it is safe: 303 becomes a GET (its meaning);
 * 301/302 are followed for a GET only; 307/308 keep the method and body, for a GET
 * anywhere and for other methods on the same origin. Never from https to http.
 * Undefined: not a redirect, or not one to follow (the caller then sees the 3xx).
 */
function redirectTarget(current: RedirectTarget, res: Response): RedirectTarget | undefined {
  const location = res.headers.location;
  if (location === undefined || ![301, 302, 303, 307, 308].includes(res.status)) return undefined;
  const from = new URL(current.url);
  const to = new URL(location, from);
  if (from.protocol === "https:" && to.protocol !== "https:") return undefined;
  if (to.protocol !== "http:" && to.protocol !== "https:") return undefined;
  if (res.status === 303) return { url: to.toString(), method: "GET", body: undefined };
  if (current.method === "GET") return { ...current, url: to.toString() };
  if ((res.status === 307 || res.status === 308) && to.origin === from.origin)
    return { ...current, url: to.toString() };
  return undefined;
}

function parseJson(text: string): unknown {
  try {
    return text.trim() === "" ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AbortError(undefined, { cause: signal.reason });
}

function asAbort(error: unknown, signal: AbortSignal | undefined): unknown {
  if (signal?.aborted && !(error instanceof MdpsError)) return new AbortError(undefined, { cause: signal.reason });
  return error;
}

function withQuery(url: string, query: RequestSpec["query"]): string {
  if (!query) return url;
  const u = new URL(url);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) u.searchParams.set(k, String(v));
  return u.toString();
}

function flatHeaders(headers: Dispatcher.ResponseData["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
  }
  return out;
}

/** Error bodies are small; a huge one is cut rather than held. */
async function readErrorBody(body: Response["body"]): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buf = chunk as Buffer;
    if (size < 1_000_000) chunks.push(buf);
    size += buf.length;
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
