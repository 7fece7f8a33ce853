import { TOKEN_PATH, tokenResponse, type TokenResponse } from "../contract/auth.js";
import type { Secret } from "./secret.js";
import { Secret as SecretValue } from "./secret.js";
import type { AccessToken, TokenProvider } from "./token-cache.js";
import type { CallOptions, Transport } from "./transport.js";

export interface ClientCredentials {
  readonly authUrl: string;
  readonly clientId: string;
  readonly clientSecret: Secret;
  /** Empty: every scope assigned to the application. */
  readonly scopes: readonly string[];
}

/** The token endpoint: the only call that ever carries the client secret. */
export class AuthResource {
  readonly #transport: Transport;
  readonly #credentials: ClientCredentials;

  constructor(transport: Transport, credentials: ClientCredentials) {
    this.#transport = transport;
    this.#credentials = credentials;
  }

  /** POST {auth_url}/api/authorization/exchange (client credentials grant). */
  async exchange(options: CallOptions = {}): Promise<TokenResponse> {
    const { authUrl, clientId, clientSecret, scopes } = this.#credentials;
    const form = new URLSearchParams({
      grant_type: "client_credentials",
      client_id: clientId,
      client_secret: clientSecret.reveal(),
      scope: scopes.join(" "),
    });
    return this.#transport.json(
      {
        method: "POST",
        url: `${authUrl}${TOKEN_PATH}`,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: () => form.toString(),
        // Asking for a token twice is harmless.
        idempotent: true,
        oauth: true,
        ...options,
      },
      tokenResponse,
    );
  }

  /** A provider for the TokenCache. */
  provider(): TokenProvider {
    return async (signal?: AbortSignal): Promise<AccessToken> => {
      const res = await this.exchange({ signal });
      return { token: new SecretValue(res.access_token), expiresIn: res.expires_in };
    };
  }
}
