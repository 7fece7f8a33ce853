/**
 * Login links for notebook output (`session.portalLink()`): a notebook is saved, shared
 * and committed with its outputs, so the link it shows must not be a login token that
 * outlives the moment. These links are kept in this process's memory only, for the
 * service of the session that made them: they work once, and never after the session
 * closes or its process ends. A saved notebook therefore holds no usable login. The
 * store of printed login tokens (PortalStore) is for links that must survive a restart.
 */
import { createHash, randomBytes } from "node:crypto";
import { LOGIN_TOKEN_TTL_MS } from "../domain/portal.js";

/** Digest of the link's secret -> which service (its port) and until when. */
const links = new Map<string, { port: number; expiresAt: number }>();

const digest = (secret: string) => createHash("sha256").update(secret).digest("hex");

/** A fresh in-memory login link for the service at `serviceUrl` (`<url>/login?link=...`). */
export function createNotebookLink(serviceUrl: string): string {
  const secret = randomBytes(32).toString("base64url");
  const url = new URL(serviceUrl);
  links.set(digest(secret), { port: Number(url.port), expiresAt: Date.now() + LOGIN_TOKEN_TTL_MS });
  return `${serviceUrl.replace(/\/+$/, "")}/login?link=${secret}`;
}

/** Uses up a link at the service listening on `port`: true once for a live one, false ever after. */
export function consumeNotebookLink(secret: string, port: number): boolean {
  const key = digest(secret);
  const link = links.get(key);
  if (link === undefined || link.port !== port) return false;
  links.delete(key);
  return link.expiresAt > Date.now();
}

/** The service on `port` stopped: its links die with it. */
export function forgetNotebookLinks(port: number): void {
  for (const [key, link] of links) if (link.port === port) links.delete(key);
}
