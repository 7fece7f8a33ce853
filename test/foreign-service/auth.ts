/**
 * The one registered application, the token exchange (OAuth 2.0 client credentials, form
 * encoded) and the bearer check every model API route runs before its handler.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { HttpError, UnauthorizedError } from "./errors.js";
import { errorPage } from "./html-pages.js";
import type { Settings } from "./switches.js";

export const TOKEN_PATH = "/api/authorization/exchange";

export interface Grant {
  readonly scopes: ReadonlySet<string>;
  readonly expiresAt: number;
}

export class Application {
  private secretDigest: Buffer;

  constructor(
    readonly clientId: string,
    secret: string,
    readonly assignedScopes: ReadonlySet<string>,
  ) {
    this.secretDigest = digest(secret);
  }

  /** Like the portal's "Regenerate secret": the old secret stops working for new token requests at once. */
  regenerateSecret(): string {
    const secret = newSecret();
    this.secretDigest = digest(secret);
    return secret;
  }

  secretMatches(candidate: string): boolean {
    return timingSafeEqual(digest(candidate), this.secretDigest);
  }
}

export function newSecret(): string {
  return randomBytes(32).toString("base64url");
}

export function newClientId(): string {
  return randomUUID();
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

export class TokenIssuer {
  private readonly grants = new Map<string, Grant>();

  constructor(
    private readonly application: Application,
    private readonly settings: Settings,
    private readonly now: () => number = Date.now,
  ) {}

  /** Checks the form and issues a token; a refusal is thrown as HttpError with a short text message. */
  exchange(form: URLSearchParams): { access_token: string; token_type: "Bearer"; expires_in: number } {
    if (form.get("grant_type") !== "client_credentials") throw new HttpError(400, "unsupported grant type");
    const clientId = form.get("client_id");
    const secret = form.get("client_secret");
    if (!clientId || !secret) throw new HttpError(400, "invalid request: client_id and client_secret are required");
    if (form.getAll("scope").length > 1) throw new HttpError(400, "invalid request: scope must be one field");
    if (clientId !== this.application.clientId || !this.application.secretMatches(secret)) {
      throw new HttpError(401, "invalid client");
    }
    const scopes = this.grantedScopes(form.get("scope") ?? "");
    const token = randomBytes(24).toString("base64url");
    const lifetime = this.settings.tokenLifetimeSeconds;
    this.grants.set(token, { scopes, expiresAt: this.now() + lifetime * 1000 });
    return { access_token: token, token_type: "Bearer", expires_in: lifetime };
  }

  /** An empty scope grants the assigned shared.* scopes only; otherwise exactly the scopes asked for. */
  private grantedScopes(scopeField: string): ReadonlySet<string> {
    const requested = scopeField.split(" ").filter((s) => s !== "");
    const assigned = this.application.assignedScopes;
    if (requested.length === 0) return new Set([...assigned].filter((s) => s.startsWith("shared.")));
    const unassigned = requested.filter((s) => !assigned.has(s));
    if (unassigned.length > 0) {
      throw new HttpError(
        400,
        this.settings.invalidScopeNamesScopes ? `invalid scope: ${unassigned.join(" ")}` : "invalid scope",
      );
    }
    return new Set(requested);
  }

  verify(authorization: string | undefined): Grant {
    const match = /^Bearer +(\S+)\s*$/i.exec(authorization ?? "");
    const token = match?.[1];
    if (token === undefined) throw new UnauthorizedError("A bearer access token is required.");
    const grant = this.grants.get(token);
    if (grant === undefined) throw new UnauthorizedError("The access token is not valid.");
    if (grant.expiresAt <= this.now()) throw new UnauthorizedError("The access token has expired.");
    return grant;
  }

  /** A preHandler: a valid token, and `scope` among its scopes when given (403 otherwise). */
  require(scope: string | undefined): (request: FastifyRequest) => Promise<void> {
    return (request) => {
      const grant = this.verify(request.headers.authorization);
      if (scope !== undefined && !grant.scopes.has(scope)) {
        return Promise.reject(new HttpError(403, `insufficient scope: this operation requires ${scope}`));
      }
      return Promise.resolve();
    };
  }
}

export function registerTokenRoute(app: FastifyInstance, issuer: TokenIssuer): void {
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_request, body, done) => {
    done(null, new URLSearchParams(typeof body === "string" ? body : body.toString("utf8")));
  });
  // Errors thrown here reach app.ts's error handler, which renders them with sendTokenError.
  app.post(TOKEN_PATH, async (request, reply) => {
    if (!(request.body instanceof URLSearchParams)) {
      throw new HttpError(415, "unsupported content type: use application/x-www-form-urlencoded");
    }
    const token = issuer.exchange(request.body);
    return reply.header("cache-control", "no-store").send(token);
  });
}

/** The token endpoint's errors are text (or an HTML page), never JSON. */
export function sendTokenError(reply: FastifyReply, error: HttpError, settings: Settings): FastifyReply {
  reply.status(error.status).header("cache-control", "no-store");
  if (settings.tokenErrors === "html") {
    const title =
      error.status === 401 ? "Unauthorized" : error.status === 415 ? "Unsupported Media Type" : "Bad Request";
    return reply.type("text/html; charset=utf-8").send(errorPage(error.status, title, error.message));
  }
  return reply.type("text/plain; charset=utf-8").send(error.message);
}
