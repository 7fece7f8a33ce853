import { TOKEN_PATH, tokenResponse, type TokenResponse } from "../contract/auth.js";
import { ENDPOINT_SCOPES, SCOPES, type Scope } from "../contract/scopes.js";
import { OAuthError } from "./errors.js";
import type { Secret } from "./secret.js";
import { Secret as SecretValue } from "./secret.js";
import type { AccessToken, TokenProvider } from "./token-cache.js";
import type { CallOptions, Transport } from "./transport.js";

export interface ClientCredentials {
  readonly authUrl: string;
  readonly clientId: string;
  readonly clientSecret: Secret;
  /** Empty: the Session's scopes (`SESSION_SCOPES`, narrowed to `WORKFLOW_SCOPES` when refused). */
  readonly scopes: readonly string[];
}

/**
 * What a token request asks for when no scopes are configured: every scope of the
 * operations a Session offers. The interface says the preprocessing scopes must be
 * included in the request, so the request never leaves `scope` empty (an empty field
 * means "all assigned" only at our reference service).
 */
export const SESSION_SCOPES: readonly Scope[] = SCOPES;

/** The upload -> preprocess -> result workflow alone: asked for when an application lacks some Session scope. */
export const WORKFLOW_SCOPES: readonly Scope[] = [
  ENDPOINT_SCOPES.blobUpload,
  ENDPOINT_SCOPES.blobDownload,
  ENDPOINT_SCOPES.jobSend,
  ENDPOINT_SCOPES.jobRead,
];

/** The token endpoint: the only call that ever carries the client secret. */
export class AuthResource {
  readonly #transport: Transport;
  #credentials: ClientCredentials;
  /** The default scopes still to ask for; narrowed once when the service refuses one. */
  #defaultScopes: readonly string[] = SESSION_SCOPES;

  constructor(transport: Transport, credentials: ClientCredentials) {
    this.#transport = transport;
    this.#credentials = credentials;
  }

  /** Asks with `credentials` from the next exchange on (a regenerated secret); the default scopes start over. */
  useCredentials(credentials: ClientCredentials): void {
    this.#credentials = credentials;
    this.#defaultScopes = SESSION_SCOPES;
  }

  /** The scopes the next token request asks for: the configured ones, else the Session's. */
  get requestedScopes(): readonly string[] {
    return this.#credentials.scopes.length > 0 ? this.#credentials.scopes : this.#defaultScopes;
  }

  /**
   * POST {auth_url}/api/authorization/exchange (client credentials grant). Without
   * configured scopes it asks for `SESSION_SCOPES`; when the service refuses them
   * (`invalid_scope`: the application lacks one), once more for `WORKFLOW_SCOPES`, and
   * then keeps to those.
   */
  async exchange(options: CallOptions = {}): Promise<TokenResponse> {
    try {
      return await this.#exchange(this.requestedScopes, options);
    } catch (error) {
      const narrower = this.#credentials.scopes.length === 0 && this.#defaultScopes !== WORKFLOW_SCOPES;
      if (!(narrower && error instanceof OAuthError && error.code === "invalid_scope")) throw error;
      this.#defaultScopes = WORKFLOW_SCOPES;
      try {
        return await this.#exchange(WORKFLOW_SCOPES, options);
      } catch (second) {
        if (!(second instanceof OAuthError && second.code === "invalid_scope")) throw second;
        throw new OAuthError({
          status: second.status,
          code: second.code,
          message:
            `The service refused the scopes of the preprocessing workflow (${WORKFLOW_SCOPES.join(" ")}): ` +
            `the application must have them. Assign them in the portal, or name the scopes it has with the ` +
            `scopes option, MDPS_SCOPES or the profile's "scopes". ${second.message}`,
          title: second.title,
          detail: second.detail,
          requestId: second.requestId,
          headers: second.headers,
          cause: second,
        });
      }
    }
  }

  async #exchange(scopes: readonly string[], options: CallOptions): Promise<TokenResponse> {
    const { authUrl, clientId, clientSecret } = this.#credentials;
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
