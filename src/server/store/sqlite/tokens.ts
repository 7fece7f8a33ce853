import { newAccessToken, tokenDigest } from "../../domain/secrets.js";
import { prepared, type Db } from "./database.js";
import type { TokenGrant } from "../../domain/tokens.js";
import type { TokenRecords } from "../port.js";

/** Access tokens: opaque random strings, stored only as sha256 digests. */
export class TokenStore implements TokenRecords {
  constructor(
    private readonly db: Db,
    private readonly region: string,
  ) {}

  issue(grant: { clientId: string; modelId: string; scopes: string[]; ttlSeconds: number }): string {
    this.purgeExpired();
    const token = newAccessToken();
    const expiresAt = Date.now() + grant.ttlSeconds * 1000;
    prepared(
      this.db,
      "INSERT INTO tokens (token_hash, client_id, model_id, scopes, region, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
    ).run(tokenDigest(token), grant.clientId, grant.modelId, grant.scopes.join(" "), this.region, expiresAt);
    return token;
  }

  /** The grant of a live token of this region, or undefined. */
  verify(token: string): TokenGrant | undefined {
    const tokenHash = tokenDigest(token);
    const row = prepared(
      this.db,
      "SELECT client_id, model_id, scopes, region, expires_at FROM tokens WHERE token_hash = ?",
    ).get(tokenHash) as
      { client_id: string; model_id: string; scopes: string; region: string; expires_at: number } | undefined;
    if (!row || row.region !== this.region || row.expires_at <= Date.now()) return undefined;
    return {
      clientId: row.client_id,
      modelId: row.model_id,
      scopes: row.scopes.split(" ").filter(Boolean),
      expiresAt: row.expires_at,
      tokenHash,
    };
  }

  purgeExpired(): number {
    return prepared(this.db, "DELETE FROM tokens WHERE expires_at <= ?").run(Date.now()).changes;
  }
}
