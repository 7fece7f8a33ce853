import fastifyRateLimit from "@fastify/rate-limit";
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from "fastify";
import type { ResolvedRateLimit } from "../options.js";
import { HttpProblem } from "../problems.js";
import { sharedPlugin } from "./shared-plugin.js";

/**
 * Request limits with @fastify/rate-limit (in-memory fixed windows). The plugin is
 * registered with `global: false`: the token endpoint and the model API each get
 * their own limiter and key, attached where the key is known (after the form is
 * parsed, after the bearer token is verified).
 */
export const rateLimitPlugin = sharedPlugin(async (app: FastifyInstance) => {
  await app.register(fastifyRateLimit, { global: false });
}, "mdps-rate-limit");

type Kind = "token" | "api";

const WHAT: Record<Kind, { subject: string; flag: string; option: string; advice: string }> = {
  token: {
    subject: "token requests for this client_id from this address",
    flag: "--token-rate-limit",
    option: "tokenPerMinute",
    advice: "Reuse a token until it expires (expires_in) instead of requesting one per call.",
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

/**
 * The limiter hook of one kind, or undefined when that limit is off (0). Token
 * requests are keyed by IP + client_id: each one runs scrypt, so this bounds both
 * guessing and CPU use per client. Model API calls are keyed by the token's sha256
 * (the grant set by authentication): the raw token is never stored or logged.
 */
export function rateLimitHook(app: FastifyInstance, kind: Kind, limits: ResolvedRateLimit): onRequestAsyncHookHandler | undefined {
  const max = kind === "token" ? limits.tokenPerWindow : limits.apiPerWindow;
  if (max === 0) return undefined;
  return app.rateLimit({
    max,
    timeWindow: limits.windowMs,
    keyGenerator:
      kind === "token"
        ? (request) => `${request.ip} ${clientIdOf(request)}`
        : (request) => request.grant?.tokenHash ?? `ip ${request.ip}`,
    errorResponseBuilder: (_request, context) => rateLimitProblem(kind, context.max, limits.windowMs, context.ttl),
  });
}
