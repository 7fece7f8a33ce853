/**
 * Faults answered before routing, in the order a real path would meet them: an outage (the
 * connection dropped), the gateway's HTML
 * 502, its empty 502, then the service's own 429/503 with Retry-After. Each counts down only
 * when it answers, and none of these requests reaches a handler.
 */
import type { FastifyInstance } from "fastify";
import { badGatewayPage } from "./html-pages.js";
import { matchesRequest, type RequestLine, type RequestMatcher, type Settings } from "./switches.js";

interface Countdown {
  readonly path: RequestMatcher;
  left: number;
}

export function registerFaults(app: FastifyInstance, settings: Settings, now: () => number = Date.now): void {
  const html502 = countdown(settings.proxyHtml502);
  const empty502 = countdown(settings.emptyBody502);
  const retry = settings.retryAfter;
  const retryCountdown = countdown(retry && { path: retry.path ?? /.*/, times: retry.times });

  const outage = settings.outage;
  let outageEnds: number | undefined;
  app.addHook("onRequest", async (request, reply) => {
    const line: RequestLine = { method: request.method, path: request.url.split("?")[0] ?? request.url };
    if (outage !== undefined && outageEnds === undefined && matchesRequest(outage.after, line)) {
      outageEnds = now() + outage.ms;
    }
    if (outageEnds !== undefined && now() < outageEnds) {
      request.raw.socket.destroy();
      return reply.hijack();
    }
    if (take(html502, line)) return reply.status(502).type("text/html").send(badGatewayPage());
    if (take(empty502, line)) return reply.status(502).send();
    if (retry !== undefined && take(retryCountdown, line)) {
      const seconds = retry.seconds ?? 1;
      const value = retry.kind === "seconds" ? String(seconds) : retryDate(now(), seconds);
      const message = retry.status === 429 ? "too many requests" : "service unavailable";
      return reply.status(retry.status).header("retry-after", value).send({ message });
    }
    return undefined;
  });
}

function countdown(spec: { readonly path: RequestMatcher; readonly times: number } | undefined): Countdown | undefined {
  return spec === undefined || spec.times <= 0 ? undefined : { path: spec.path, left: spec.times };
}

function take(counter: Countdown | undefined, line: RequestLine): boolean {
  if (counter === undefined || counter.left <= 0 || !matchesRequest(counter.path, line)) return false;
  counter.left -= 1;
  return true;
}

/** An HTTP-date has whole seconds; round up so the client never sees a moment already past. */
function retryDate(nowMs: number, seconds: number): string {
  return new Date(Math.ceil(nowMs / 1000) * 1000 + seconds * 1000).toUTCString();
}
