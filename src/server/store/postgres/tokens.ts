import { newAccessToken, tokenDigest } from "../../domain/secrets.js";
import type { TokenGrant } from "../../domain/tokens.js";
import type { PgDb } from "./connection.js";

/** Access tokens as TokenStore (../tokens.ts) keeps them: sha256 digests only, of one region. */
export class PgTokenStore {
  constructor(
    private readonly db: PgDb,
    private readonly region: string,
  ) {}

  async issue(grant: { clientId: string; modelId: string; scopes: string[]; ttlSeconds: number }): Promise<string> {
    await this.purgeExpired();
    const token = newAccessToken();
    const expiresAt = Date.now() + grant.ttlSeconds * 1000;
    await this.db.run(
      "INSERT INTO tokens (token_hash, client_id, model_id, scopes, region, expires_at) VALUES ($1, $2, $3, $4, $5, $6)",
      [tokenDigest(token), grant.clientId, grant.modelId, grant.scopes.join(" "), this.region, expiresAt],
    );
    return token;
  }

  /** The grant of a live token of this region, or undefined. */
  async verify(token: string): Promise<TokenGrant | undefined> {
    const tokenHash = tokenDigest(token);
    const row = await this.db.one<{
      client_id: string;
      model_id: string;
      scopes: string;
      region: string;
      expires_at: number;
    }>("SELECT client_id, model_id, scopes, region, expires_at FROM tokens WHERE token_hash = $1", [tokenHash]);
    if (!row || row.region !== this.region || row.expires_at <= Date.now()) return undefined;
    return {
      clientId: row.client_id,
      modelId: row.model_id,
      scopes: row.scopes.split(" ").filter(Boolean),
      expiresAt: row.expires_at,
      tokenHash,
    };
  }

  async purgeExpired(): Promise<number> {
    return this.db.run("DELETE FROM tokens WHERE expires_at <= $1", [Date.now()]);
  }
}
