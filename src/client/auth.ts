import { TOKEN_PATH, tokenResponse, type TokenResponse } from "../core/contract/auth.js";
import { ENDPOINT_SCOPES, SCOPES, type Scope } from "../core/contract/scopes.js";
import { OAuthError } from "./errors.js";
import type { Secret } from "./secret.js";
import { Secret as SecretValue } from "./secret.js";
import type { AccessToken, TokenProvider } from "./token-cache.js";
import type { CallOptions, Transport } from "./transport.js";

export interface ClientCredentials {
  readonly authUrl: string;
  readonly clientId: string;
  readonly clientSecret: Secret;
  /** Empty: the Session's scopes (`SESSION_SCOPES`, narrowed to those the application holds when refused). */
  readonly scopes: readonly string[];
}

/**
 * What a token request asks for when no scopes are configured: every scope of the
 * operations a Session offers. The interface says the preprocessing scopes must be
 * included in the request, so the request never leaves `scope` empty (an empty field
 * means "all assigned" only at our reference service).
 */
export const SESSION_SCOPES: readonly Scope[] = SCOPES;

/** The upload -> preprocess -> result workflow alone (what `doctor` checks a token covers). */
export const WORKFLOW_SCOPES: readonly Scope[] = [
  ENDPOINT_SCOPES.blobUpload,
  ENDPOINT_SCOPES.blobDownload,
  ENDPOINT_SCOPES.jobSend,
  ENDPOINT_SCOPES.jobRead,
];

/**
 * The groups asked for one by one when a refusal names no scope: a group the service
 * refuses is asked for scope by scope, so every scope the application holds is kept.
 */
export const SCOPE_GROUPS: readonly (readonly Scope[])[] = [
  [ENDPOINT_SCOPES.blobUpload, ENDPOINT_SCOPES.blobDownload],
  [ENDPOINT_SCOPES.jobSend, ENDPOINT_SCOPES.jobRead],
  [ENDPOINT_SCOPES.blobRead, ENDPOINT_SCOPES.blobUpdate, ENDPOINT_SCOPES.blobDelete],
  [ENDPOINT_SCOPES.health],
];

/** The token endpoint: the only call that ever carries the client secret. */
export class AuthResource {
  readonly #transport: Transport;
  #credentials: ClientCredentials;
  /** The default scopes still to ask for; narrowed to those the application holds when the service refuses one. */
  #defaultScopes: readonly string[] = SESSION_SCOPES;
  /** The scopes dropped from the default request, and what the service said of them. */
  #dropped: { readonly scopes: readonly string[]; readonly how: "named" | "probed" } | undefined;

  constructor(transport: Transport, credentials: ClientCredentials) {
    this.#transport = transport;
    this.#credentials = credentials;
  }

  /** Asks with `credentials` from the next exchange on (a regenerated secret); the default scopes start over. */
  useCredentials(credentials: ClientCredentials): void {
    this.#credentials = credentials;
    this.#defaultScopes = SESSION_SCOPES;
    this.#dropped = undefined;
  }

  /** The scopes the next token request asks for: the configured ones, else the Session's (narrowed). */
  get requestedScopes(): readonly string[] {
    return this.#credentials.scopes.length > 0 ? this.#credentials.scopes : this.#defaultScopes;
  }

  /**
   * The Session's scopes the token request no longer asks for because the service refused
   * them: `named` when its `invalid_scope` named them, `probed` when it named none and each
   * group was asked for on its own. Undefined: nothing was dropped.
   */
  get droppedScopes(): { readonly scopes: readonly string[]; readonly how: "named" | "probed" } | undefined {
    return this.#dropped;
  }

  /**
   * POST {auth_url}/api/authorization/exchange (client credentials grant). Without
   * configured scopes it asks for `SESSION_SCOPES`; when the service refuses them
   * (`invalid_scope`), it drops only the scopes the refusal names and asks again; when
   * the refusal names none, it asks for each of `SCOPE_GROUPS` on its own (a refused
   * group scope by scope) and then for every scope granted. It keeps to the narrowed
   * list from then on.
   */
  async exchange(options: CallOptions = {}): Promise<TokenResponse> {
    try {
      return await this.#exchange(this.requestedScopes, options);
    } catch (error) {
      const narrowable = this.#credentials.scopes.length === 0 && this.#dropped === undefined;
      if (!(narrowable && error instanceof OAuthError && error.code === "invalid_scope")) throw error;
      return this.#narrow(error, options);
    }
  }

  async #narrow(first: OAuthError, options: CallOptions): Promise<TokenResponse> {
    let scopes = [...this.#defaultScopes];
    let refusal = first;
    const dropped: string[] = [];
    // Drop what each refusal names, as long as it names a scope still asked for.
    for (;;) {
      const named = scopesNamedIn(refusal, scopes);
      if (named.length === 0) break;
      scopes = scopes.filter((s) => !named.includes(s));
      dropped.push(...named);
      if (scopes.length === 0) throw this.#noneHeld(refusal, dropped);
      try {
        const token = await this.#exchange(scopes, options);
        this.#keep(scopes, dropped, "named");
        return token;
      } catch (error) {
        if (!(error instanceof OAuthError && error.code === "invalid_scope")) throw error;
        refusal = error;
      }
    }
    // The refusal names nothing mdps can use: ask for each group on its own.
    const held: string[] = [];
    for (const group of SCOPE_GROUPS) {
      const wanted = group.filter((s) => scopes.includes(s));
      if (wanted.length === 0) continue;
      if (await this.#grants(wanted, options)) {
        held.push(...wanted);
        continue;
      }
      if (wanted.length === 1) continue;
      for (const scope of wanted) if (await this.#grants([scope], options)) held.push(scope);
    }
    const lost = scopes.filter((s) => !held.includes(s));
    if (held.length === 0) throw this.#noneHeld(refusal, [...dropped, ...lost]);
    const token = await this.#exchange(held, options);
    this.#keep(held, [...dropped, ...lost], "probed");
    return token;
  }

  async #grants(scopes: readonly string[], options: CallOptions): Promise<boolean> {
    try {
      await this.#exchange(scopes, options);
      return true;
    } catch (error) {
      if (error instanceof OAuthError && error.code === "invalid_scope") return false;
      throw error;
    }
  }

  #keep(scopes: readonly string[], dropped: readonly string[], how: "named" | "probed"): void {
    this.#defaultScopes = scopes;
    this.#dropped = { scopes: dropped, how };
  }

  #noneHeld(refusal: OAuthError, dropped: readonly string[]): OAuthError {
    return new OAuthError({
      status: refusal.status,
      code: refusal.code,
      message:
        `The service refused every scope mdps asked for (${dropped.join(" ")}): the application holds none of them. ` +
        `Assign scopes to the application in the portal, or name the ones it has with the scopes option, ` +
        `MDPS_SCOPES or the profile's "scopes". ${refusal.message}`,
      title: refusal.title,
      detail: refusal.detail,
      requestId: refusal.requestId,
      headers: refusal.headers,
      cause: refusal,
    });
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

/**
 * The scopes of `asked` that a refusal names: those in the first clause of its text that
 * names any (a description often goes on to list the scopes the application has, as in
 * "not assigned: a b; it has: c d", and those must stay).
 */
export function scopesNamedIn(error: OAuthError, asked: readonly string[]): string[] {
  const text = [error.detail, typeof error.body === "string" ? error.body : undefined, error.title]
    .filter((t): t is string => typeof t === "string")
    .join("\n");
  for (const clause of text.split(/;|\n|\.\s/)) {
    const named = asked.filter((scope) =>
      new RegExp(`(^|[^\\w.])${scope.replace(/\./g, "\\.")}($|[^\\w.])`).test(clause),
    );
    if (named.length > 0) return named;
  }
  return [];
}
