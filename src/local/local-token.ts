/**
 * The token a `Session.local()` keeps between runs, next to the credentials file of its
 * data dir (0600, like it): a new session in another run skips the token exchange.
 */
import { join } from "node:path";
import type { MdpsClient } from "../client/client.js";
import { credentialsFingerprint, persistTokens } from "../client/persisted-token.js";

export const TOKEN_FILE = "local-session-token.json";

/**
 * Starts the client from the token kept in `dataDir` and keeps each token it fetches.
 * Returns whether a kept token was taken (the caller checks the service still knows it).
 */
export function keepLocalToken(client: MdpsClient, dataDir: string): boolean {
  const before = client.tokens.primed;
  const { clientId, clientSecret } = client.config;
  persistTokens(client.tokens, join(dataDir, TOKEN_FILE), credentialsFingerprint(clientId, clientSecret));
  return client.tokens.primed && !before;
}
