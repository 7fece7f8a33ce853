import { tokenDigest } from "../../domain/secrets.js";
import { prepared, type Db } from "./database.js";
import { liveGrant, newToken, type TokenGrant, type TokenRow } from "../../domain/tokens.js";
import type { TokenRecords } from "../port.js";

/** Access tokens: opaque random strings, stored only as sha256 digests. */
export class TokenStore implements TokenRecords {
  constructor(
    private readonly db: Db,
    private readonly region: string,
  ) {}

  issue(grant: { clientId: string; modelId: string; scopes: string[]; ttlSeconds: number }): string {
    this.purgeExpired();
    const { token, row } = newToken(grant, this.region);
    prepared(
      this.db,
      "INSERT INTO tokens (token_hash, client_id, model_id, scopes, region, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
    ).run(row.token_hash, row.client_id, row.model_id, row.scopes, row.region, row.expires_at);
    return token;
  }

  /** The grant of a live token of this region, or undefined. */
  verify(token: string): TokenGrant | undefined {
    const row = prepared(
      this.db,
      "SELECT token_hash, client_id, model_id, scopes, region, expires_at FROM tokens WHERE token_hash = ?",
    ).get(tokenDigest(token)) as TokenRow | undefined;
    return liveGrant(row, this.region);
  }

  purgeExpired(): number {
    return prepared(this.db, "DELETE FROM tokens WHERE expires_at <= ?").run(Date.now()).changes;
  }
}
