import fastifyRateLimit from "@fastify/rate-limit";
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from "fastify";
import fp from "fastify-plugin";
import type { ResolvedRateLimit } from "../../options.js";
import { HttpProblem } from "../problems.js";

/**
 * Request limits with @fastify/rate-limit (in-memory fixed windows). The plugin is
 * registered with `global: false`: the token endpoint and the model API each get
 * their own limiter and key, attached where the key is known (after the form is
 * parsed, after the bearer token is verified).
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(fastifyRateLimit, { global: false });
  },
  { name: "mdps-rate-limit", fastify: "5.x" },
);

type Kind = "token" | "tokenAddress" | "api";

const WHAT: Record<Kind, { subject: string; flag: string; option: string; advice: string }> = {
  token: {
    subject: "token requests for this client_id from this address",
    flag: "--token-rate-limit",
    option: "tokenPerMinute",
    advice: "Reuse a token until it expires (expires_in) instead of requesting one per call.",
  },
  tokenAddress: {
    subject: "token requests from this address (all client_ids together)",
    flag: "--token-address-rate-limit",
    option: "tokenPerAddressPerMinute",
    advice: "Reuse each token until it expires (expires_in); clients behind one address share this budget.",
  },
  api: {
    subject: "model API calls with this access token",
    flag: "--api-rate-limit",
    option: "apiPerMinute",
    advice: "Send fewer calls at once, or poll less often.",
  },
};

function describeWindow(windowMs: number): string {
  if (windowMs === 60_000) return "per minute";
  return windowMs % 1000 === 0 ? `per ${windowMs / 1000} s` : `per ${windowMs} ms`;
}

/** The 429, thrown into the one error path so it is problem+json like every other error. */
export function rateLimitProblem(kind: Kind, max: number, windowMs: number, ttlMs: number): HttpProblem {
  const seconds = Math.max(1, Math.ceil(ttlMs / 1000));
  const what = WHAT[kind];
  return new HttpProblem(
    429,
    `Too many ${what.subject}: the limit is ${max} ${describeWindow(windowMs)}. Retry after ${seconds} s (the Retry-After header). ` +
      `${what.advice} On a local service the operator can raise the limit with 'mdps serve ${what.flag} N' ` +
      `(0 disables) or ServiceOptions.rateLimit.${what.option}.`,
    { headers: { "retry-after": String(seconds) }, body: { retry_after_seconds: seconds } },
  );
}

/** The client_id of a token request (form field or HTTP Basic user), never the secret. */
function clientIdOf(request: FastifyRequest): string {
  const form = request.body as Record<string, unknown> | null | undefined;
  if (form && typeof form === "object" && typeof form.client_id === "string") return form.client_id.slice(0, 256);
  const basic = /^Basic\s+(\S+)$/i.exec(request.headers.authorization ?? "");
  if (!basic) return "";
  const decoded = Buffer.from(basic[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  return colon < 0 ? "" : decoded.slice(0, Math.min(colon, 256));
}

const LIMITS: Record<Kind, { max: (limits: ResolvedRateLimit) => number; key: (request: FastifyRequest) => string }> = {
  // Each token request runs scrypt, so this bounds both guessing and CPU use per client.
  token: { max: (l) => l.tokenPerWindow, key: (request) => `${request.ip} ${clientIdOf(request)}` },
  // The same per address alone: a caller inventing a client_id per attempt still pays.
  tokenAddress: { max: (l) => l.tokenPerAddressWindow, key: (request) => `address ${request.ip}` },
  // The token's sha256 (the grant set by authentication): the raw token is never stored.
  api: { max: (l) => l.apiPerWindow, key: (request) => request.grant?.tokenHash ?? `ip ${request.ip}` },
};

/**
 * The limiter hook of one kind, or undefined when that limit is off (0). The plugin
 * runs one `rateLimit` hook per request and sets the X-RateLimit headers from it, so
 * the address's limit, which shares a route with the client's, is a bare counter
 * (`createRateLimit`): it only ever answers the 429, and the headers on a token reply
 * stay the client's budget.
 */
export function rateLimitHook(
  app: FastifyInstance,
  kind: Kind,
  limits: ResolvedRateLimit,
): onRequestAsyncHookHandler | undefined {
  const max = LIMITS[kind].max(limits);
  if (max === 0) return undefined;
  const options = { max, timeWindow: limits.windowMs, keyGenerator: LIMITS[kind].key };
  if (kind === "tokenAddress") {
    const count = app.createRateLimit(options);
    return async (request) => {
      const result = await count(request);
      if (!result.isAllowed && result.isExceeded) throw rateLimitProblem(kind, result.max, limits.windowMs, result.ttl);
    };
  }
  return app.rateLimit({
    ...options,
    errorResponseBuilder: (_request, context) => rateLimitProblem(kind, context.max, limits.windowMs, context.ttl),
  });
}
