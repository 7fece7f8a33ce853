/** What an access token grants, as the stores keep it. */
export interface TokenGrant {
  clientId: string;
  modelId: string;
  scopes: string[];
  expiresAt: number;
  /** sha256 of the token: what rate limits key on, so the raw token is never kept. */
  tokenHash: string;
}
