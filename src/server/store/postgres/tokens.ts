import { tokenDigest } from "../../domain/secrets.js";
import { liveGrant, newToken, type TokenGrant, type TokenRow } from "../../domain/tokens.js";
import type { PgDb } from "./connection.js";

/** Access tokens as TokenStore (../sqlite/tokens.ts) keeps them: sha256 digests only, of one region. */
export class PgTokenStore {
  constructor(
    private readonly db: PgDb,
    private readonly region: string,
  ) {}

  async issue(grant: { clientId: string; modelId: string; scopes: string[]; ttlSeconds: number }): Promise<string> {
    await this.purgeExpired();
    const { token, row } = newToken(grant, this.region);
    await this.db.run(
      "INSERT INTO tokens (token_hash, client_id, model_id, scopes, region, expires_at) VALUES ($1, $2, $3, $4, $5, $6)",
      [row.token_hash, row.client_id, row.model_id, row.scopes, row.region, row.expires_at],
    );
    return token;
  }

  /** The grant of a live token of this region, or undefined. */
  async verify(token: string): Promise<TokenGrant | undefined> {
    const row = await this.db.one<TokenRow>(
      "SELECT token_hash, client_id, model_id, scopes, region, expires_at FROM tokens WHERE token_hash = $1",
      [tokenDigest(token)],
    );
    return liveGrant(row, this.region);
  }

  async purgeExpired(): Promise<number> {
    return this.db.run("DELETE FROM tokens WHERE expires_at <= $1", [Date.now()]);
  }
}
