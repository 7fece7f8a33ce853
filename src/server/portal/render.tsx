import type { FastifyReply } from "fastify";
import { createRequire } from "node:module";
import type { ReactElement } from "react";

// react-dom's server renderer is a megabyte of code that a service which never shows a
// portal page (a notebook's `Session.local()`, a job) need not compile: it is required
// at the first page. (A require, not an import, keeps sendPage synchronous.)
const requireLazily = createRequire(import.meta.url);
let renderer: typeof import("react-dom/server") | undefined;

/** React elements to static HTML: every value escaped, no client runtime. */
export function renderToStaticMarkup(element: ReactElement): string {
  renderer ??= requireLazily("react-dom/server") as typeof import("react-dom/server");
  return renderer.renderToStaticMarkup(element);
}

export interface SendOptions {
  status?: number;
  /** For pages that show a secret: never stored by the browser or a proxy. */
  secret?: boolean;
}

/**
 * Renders a page (`renderToStaticMarkup`) and sends it. Ordinary pages may be kept in the history, so the back
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
