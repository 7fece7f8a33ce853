import { tokenDigest } from "../../domain/secrets.js";
import { liveGrant, newToken, type TokenGrant, type TokenRow } from "../../domain/tokens.js";
import { DB_NOW_MS, type PgDb } from "./connection.js";

/**
 * Access tokens as TokenStore (../sqlite/tokens.ts) keeps them: sha256 digests only, of one
 * region. Their expiry is set and read on the database server's clock, as leases are: a
 * token one replica issued is live on every replica for its whole lifetime and no longer,
 * whatever their own clocks say.
 */
export class PgTokenStore {
  constructor(
    private readonly db: PgDb,
    private readonly region: string,
  ) {}

  async issue(grant: { clientId: string; modelId: string; scopes: string[]; ttlSeconds: number }): Promise<string> {
    await this.purgeExpired();
    const { token, row } = newToken(grant, this.region);
    await this.db.run(
      `INSERT INTO tokens (token_hash, client_id, model_id, scopes, region, expires_at)
       VALUES ($1, $2, $3, $4, $5, ${DB_NOW_MS} + $6::bigint)`,
      [row.token_hash, row.client_id, row.model_id, row.scopes, row.region, grant.ttlSeconds * 1000],
    );
    return token;
  }

  /** The grant of a live token of this region, or undefined. */
  async verify(token: string): Promise<TokenGrant | undefined> {
    const row = await this.db.one<TokenRow & { db_now: number }>(
      `SELECT token_hash, client_id, model_id, scopes, region, expires_at, ${DB_NOW_MS} AS db_now
       FROM tokens WHERE token_hash = $1`,
      [tokenDigest(token)],
    );
    return liveGrant(row, this.region, row?.db_now);
  }

  async purgeExpired(): Promise<number> {
    return this.db.run(`DELETE FROM tokens WHERE expires_at <= ${DB_NOW_MS}`);
  }
}
