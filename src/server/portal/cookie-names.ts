/**
 * The portal's cookies are named per host and port, as Jupyter Server names its own:
 * browsers keep cookies per host, not per port, so two portals on one host (two data
 * dirs, `mdps serve` beside a notebook's Session.local()) would otherwise overwrite each
 * other's session and CSRF secret, and log each other out.
 */
import type { FastifyReply, FastifyRequest } from "fastify";

/** The name @fastify/csrf-protection is registered with; the browser never sees it. */
export const CSRF_PLUGIN_COOKIE = "mdps_csrf";

/** `127.0.0.1-8080` for Host `127.0.0.1:8080`: only characters a cookie name may hold. */
function hostKey(request: FastifyRequest): string {
  return request.host.replace(/[^A-Za-z0-9.]/g, "-");
}

export function sessionCookieName(request: FastifyRequest): string {
  return `mdps_portal-${hostKey(request)}`;
}

export function csrfCookieName(request: FastifyRequest): string {
  return `mdps_csrf-${hostKey(request)}`;
}

/**
 * An onRequest hook (after @fastify/cookie has parsed the cookies): the CSRF plugin reads
 * and writes one fixed cookie name, so this portal's own cookie is handed to it under that
 * name, and the cookie it sets goes out under this portal's name.
 */
export function scopeCsrfCookie(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  const name = csrfCookieName(request);
  const own = request.cookies[name];
  if (own === undefined) Reflect.deleteProperty(request.cookies, CSRF_PLUGIN_COOKIE);
  else request.cookies[CSRF_PLUGIN_COOKIE] = own;
  const setCookie = reply.setCookie.bind(reply);
  reply.setCookie = (cookieName, value, options) =>
    setCookie(cookieName === CSRF_PLUGIN_COOKIE ? name : cookieName, value, options);
  done();
}
