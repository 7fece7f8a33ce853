/**
 * An access token kept in a file between runs, so a new process skips the token
 * exchange (the service's secret check is deliberately slow). The file holds a bearer
 * token, so it is written like a credentials file: mode 0600, through a temporary file
 * renamed into place, and never logged. It is read only with the credentials it was issued
 * for (the file names them by a fingerprint: a hash of client id and secret, so a changed
 * secret is noticed at once, not when the token expires); an unreadable, foreign, or
 * expired one is deleted and a fresh token is fetched.
 */
import { createHash } from "node:crypto";
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { z } from "zod";
import { Secret } from "./secret.js";
import type { KeptToken, TokenCache } from "./token-cache.js";

const persisted = z.object({
  /** credentialsFingerprint() of the credentials the token was issued for. */
  credentials: z.string().min(1),
  access_token: z.string().min(1),
  /** Epoch ms. */
  expires_at_ms: z.number().int(),
});

/** A token kept at least this long before expiry is worth reading back. */
const MIN_REMAINING_MS = 60_000;

/** Names a client id and secret without revealing the secret (sha256 of both). */
export function credentialsFingerprint(clientId: string, clientSecret: Secret): string {
  return createHash("sha256").update(clientId).update("\u0000").update(clientSecret.reveal()).digest("hex");
}

/** The token kept at `path` for `credentials`, if it has a minute or more left; anything else found there is deleted. */
export function readPersistedToken(path: string, credentials: string, now: number = Date.now()): KeptToken | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
  const parsed = persisted.safeParse(safeJson(text));
  if (
    parsed.success &&
    parsed.data.credentials === credentials &&
    parsed.data.expires_at_ms - now >= MIN_REMAINING_MS
  ) {
    return { token: new Secret(parsed.data.access_token), expiresAtMs: parsed.data.expires_at_ms };
  }
  dropPersistedToken(path);
  return undefined;
}

/** Keeps `kept` at `path` (0600, atomically). A failure to write only costs the next run an exchange. */
export function writePersistedToken(path: string, credentials: string, kept: KeptToken): void {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    const body = {
      credentials,
      access_token: kept.token.reveal(),
      expires_at_ms: Math.floor(kept.expiresAtMs),
    };
    writeFileSync(tmp, JSON.stringify(body), { mode: 0o600 });
    renameSync(tmp, path);
  } catch {
    rmSync(tmp, { force: true });
  }
}

export function dropPersistedToken(path: string): void {
  rmSync(path, { force: true });
}

/**
 * Starts `tokens` from the token kept at `path` for `credentials` (a credentialsFingerprint)
 * and keeps every token it fetches there.
 * Returns a function that stops keeping them.
 */
export function persistTokens(tokens: TokenCache, path: string, credentials: string): () => void {
  const kept = readPersistedToken(path, credentials);
  if (kept !== undefined) tokens.prime(kept);
  return tokens.onFresh((fresh) => {
    writePersistedToken(path, credentials, fresh);
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
