import type { CookieSerializeOptions } from "@fastify/cookie";
import type { FastifyReply, FastifyRequest } from "fastify";
import { PORTAL_SESSION_TTL_MS, type PortalStore } from "../store/portal.js";

export const SESSION_COOKIE = "mdps_portal";

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

export function startSession(store: PortalStore, request: FastifyRequest, reply: FastifyReply): void {
  reply.setCookie(SESSION_COOKIE, store.createSession(), sessionCookieOptions(request));
}

export function endSession(store: PortalStore, request: FastifyRequest, reply: FastifyReply): void {
  const session = request.cookies[SESSION_COOKIE];
  if (session) store.endSession(session);
  reply.clearCookie(SESSION_COOKIE, { path: "/" });
}

export function hasLiveSession(store: PortalStore, request: FastifyRequest): boolean {
  const session = request.cookies[SESSION_COOKIE];
  return session !== undefined && store.sessionIsLive(session);
}

/** Where to go after logging in: a path of this portal only (never `//host`, never another origin). */
export function safeNext(value: unknown): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\"))
    return "/models";
  if (value.startsWith("/login") || value.startsWith("/api/")) return "/models";
  return value;
}

/**
 * The one question every portal page asks, as in Jupyter Server: is there a user?
 * A page without a live session redirects to the login page (which remembers the
 * page); a form post without one does the same, and does nothing.
 */
export function requireSession(store: PortalStore) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const config = request.routeOptions.config as { public?: boolean } | undefined;
    if (config?.public || hasLiveSession(store, request)) return undefined;
    const next = request.method === "GET" ? request.url : "/models";
    return reply.redirect(`/login?next=${encodeURIComponent(safeNext(next))}`, 303);
  };
}
