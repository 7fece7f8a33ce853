/** What an access token grants, and how a store makes and reads one (digests only, one region). */
import { newAccessToken, tokenDigest } from "./secrets.js";
export interface TokenGrant {
  clientId: string;
  modelId: string;
  scopes: string[];
  expiresAt: number;
  /** sha256 of the token: what rate limits key on, so the raw token is never kept. */
  tokenHash: string;
}

/** A token's row as every store keeps it: the digest, never the token. */
export interface TokenRow {
  token_hash: string;
  client_id: string;
  model_id: string;
  scopes: string;
  region: string;
  expires_at: number;
}

/** A new token for `grant` in `region`, and the row to store for it. */
export function newToken(
  grant: { clientId: string; modelId: string; scopes: string[]; ttlSeconds: number },
  region: string,
): { token: string; row: TokenRow } {
  const token = newAccessToken();
  const row = {
    token_hash: tokenDigest(token),
    client_id: grant.clientId,
    model_id: grant.modelId,
    scopes: grant.scopes.join(" "),
    region,
    expires_at: Date.now() + grant.ttlSeconds * 1000,
  };
  return { token, row };
}

/**
 * The grant a stored row gives, if it is live at `now` and of `region`. `now` is the store's
 * clock: this process's for SQLite, the database server's for PostgreSQL, so replicas whose
 * clocks disagree agree on which token has expired.
 */
export function liveGrant(row: TokenRow | undefined, region: string, now: number = Date.now()): TokenGrant | undefined {
  if (!row || row.region !== region || row.expires_at <= now) return undefined;
  return {
    clientId: row.client_id,
    modelId: row.model_id,
    scopes: row.scopes.split(" ").filter(Boolean),
    expiresAt: row.expires_at,
    tokenHash: row.token_hash,
  };
}
