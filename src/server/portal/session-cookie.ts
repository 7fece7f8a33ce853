import type { CookieSerializeOptions } from "@fastify/cookie";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Async } from "../store/async-port.js";
import type { PortalRecords } from "../store/port.js";
import { PORTAL_SESSION_TTL_MS } from "../domain/portal.js";
import { sessionCookieName } from "./cookie-names.js";

/** HttpOnly (no script reads it), SameSite=Strict (no other site's page sends it); Secure over https. */
export function sessionCookieOptions(request: FastifyRequest): CookieSerializeOptions {
  return {
    path: "/",
    httpOnly: true,
    sameSite: "strict",
    secure: request.protocol === "https",
    maxAge: Math.floor(PORTAL_SESSION_TTL_MS / 1000),
  };
}

export async function startSession(
  store: Async<PortalRecords>,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  reply.setCookie(sessionCookieName(request), await store.createSession(), sessionCookieOptions(request));
}

export async function endSession(
  store: Async<PortalRecords>,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const session = request.cookies[sessionCookieName(request)];
  if (session) await store.endSession(session);
  reply.clearCookie(sessionCookieName(request), { path: "/" });
}

export async function hasLiveSession(store: Async<PortalRecords>, request: FastifyRequest): Promise<boolean> {
  const session = request.cookies[sessionCookieName(request)];
  return session !== undefined && (await store.sessionIsLive(session));
}

const AFTER_LOGIN = "/models";
/** Any origin will do: only paths of the portal's own origin are kept. */
const OWN_ORIGIN = "http://portal.invalid";

/**
 * Where to go after logging in: a path of this portal only, judged as a browser will
 * read it (as Django's url_has_allowed_host_and_scheme does). Browsers drop tab, CR and
 * LF anywhere in a URL and read `\` as `/`, so `/\t/evil.example/` and `/\evil.example`
 * are `//evil.example`: another host. The path goes out as the URL parser writes it.
 */
export function safeNext(value: unknown): string {
  if (typeof value !== "string") return AFTER_LOGIN;
  const asRead = value.replace(/[\t\n\r]/g, "").replace(/\\/g, "/");
  if (!asRead.startsWith("/") || asRead.startsWith("//")) return AFTER_LOGIN;
  let url: URL;
  try {
    url = new URL(asRead, OWN_ORIGIN);
  } catch {
    return AFTER_LOGIN;
  }
  if (url.origin !== OWN_ORIGIN) return AFTER_LOGIN;
  const path = `${url.pathname}${url.search}${url.hash}`;
  if (path.startsWith("/login") || path.startsWith("/api/") || path.startsWith("//")) return AFTER_LOGIN;
  return path;
}

/**
 * The one question every portal page asks, as in Jupyter Server: is there a user?
 * A page without a live session redirects to the login page (which remembers the
 * page); a form post without one does the same, and does nothing.
 */
export function requireSession(store: Async<PortalRecords>) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const config = request.routeOptions.config as { public?: boolean } | undefined;
    if (config?.public || (await hasLiveSession(store, request))) return undefined;
    const next = request.method === "GET" ? request.url : "/models";
    return reply.redirect(`/login?next=${encodeURIComponent(safeNext(next))}`, 303);
  };
}
