import type { FastifyRequest } from "fastify";

/**
 * The portal's request log line: Fastify's default fields, with the query string
 * dropped (`/login?token=...` carries a login token) and the id of a one-time secret
 * page masked. Request bodies are never logged (app.ts redacts them anyway).
 */
export function portalRequestLog(request: FastifyRequest): Record<string, unknown> {
  const path = request.url.split("?")[0] ?? "";
  return {
    method: request.method,
    url: path.replace(/^\/secrets\/[^/]+/, "/secrets/***"),
    host: request.host,
    remoteAddress: request.ip,
  };
}
