import type { FastifyReply } from "fastify";
import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";

export interface SendOptions {
  status?: number;
  /** For pages that show a secret: never stored by the browser or a proxy. */
  secret?: boolean;
}

/**
 * Renders a page (React elements to static HTML: every value escaped, no client
 * runtime) and sends it. Ordinary pages may be kept in the history, so the back
 * button shows the form as it was, with its already-used nonce; a secret page is
 * `no-store`, so back or refresh asks the server again and finds nothing.
 */
export function sendPage(reply: FastifyReply, page: ReactElement, options: SendOptions = {}): FastifyReply {
  const html = `<!DOCTYPE html>${renderToStaticMarkup(page)}`;
  reply
    .code(options.status ?? 200)
    .type("text/html; charset=utf-8")
    .header("cache-control", options.secret ? "no-store" : "private, no-cache");
  if (options.secret) reply.header("pragma", "no-cache");
  return reply.send(html);
}
