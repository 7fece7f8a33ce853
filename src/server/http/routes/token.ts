import type { FastifyError, FastifyInstance, FastifyReply } from "fastify";
import fp from "fastify-plugin";
import { isScope, SCOPES, TOKEN_PATH, type OAuthError } from "../../../core/contract/index.js";
import { sendProblem } from "../plugins/errors.js";
import { rateLimitHook } from "../plugins/rate-limit.js";
import { HttpProblem } from "../problems.js";
import { decoyHash, verifySecret } from "../../domain/secrets.js";
import { parseScopes } from "../../domain/applications.js";

/** An RFC 6749 section 5.2 error, answered as JSON (not problem+json) as OAuth clients expect. */
class OAuthProblem extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
  }
}

function sendOAuthError(reply: FastifyReply, problem: OAuthProblem): FastifyReply {
  const body: OAuthError = { error: problem.error, error_description: problem.description };
  return reply
    .code(problem.status)
    .headers({ "cache-control": "no-store", pragma: "no-cache", ...problem.headers })
    .send(body);
}

/** Form fields; a repeated field is an error (RFC 6749 section 3.2). */
function parseForm(text: string): Record<string, string> {
  const form: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    if (Object.hasOwn(form, key))
      throw new OAuthProblem(400, "invalid_request", `the field '${key}' is repeated; send each field once`);
    form[key] = value;
  }
  return form;
}

/** RFC 6749 section 2.3.1 lets a client send its credentials with HTTP Basic instead of the form. */
function basicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  const match = header && /^Basic\s+(\S+)$/i.exec(header);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return undefined;
  try {
    return { id: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) };
  } catch {
    throw new OAuthProblem(
      400,
      "invalid_request",
      "the Basic credentials are not valid form-encoded client_id:client_secret",
    );
  }
}

/** POST /api/authorization/exchange: the OAuth 2.0 client credentials grant. */
function registerTokenRoutes(app: FastifyInstance): Promise<void> {
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string", bodyLimit: 16 * 1024 },
    (_req, body, done) => {
      try {
        done(null, parseForm(body as string));
      } catch (err) {
        done(err as Error, undefined);
      }
    },
  );

  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof OAuthProblem) return sendOAuthError(reply, err);
    // A 429 is not an OAuth error: it is the service's problem+json, with Retry-After.
    if (err instanceof HttpProblem)
      return sendProblem(reply.header("cache-control", "no-store"), err, request.url.split("?")[0]!);
    if (
      err.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE" ||
      err.code === "FST_ERR_CTP_EMPTY_JSON_BODY" ||
      (err.statusCode ?? 500) < 500
    ) {
      return sendOAuthError(
        reply,
        new OAuthProblem(
          400,
          "invalid_request",
          "send the fields grant_type, client_id, client_secret and scope as application/x-www-form-urlencoded",
        ),
      );
    }
    request.log.error({ err }, "token exchange failed");
    return reply
      .code(500)
      .header("cache-control", "no-store")
      .send({ error: "server_error", error_description: "the token could not be issued; retry" });
  });

  // preHandler: the client's limit keys on the form's client_id, so it runs once the form
  // is parsed. The address's limit first, so the X-RateLimit headers left on the reply
  // are the client's.
  const limits = [
    rateLimitHook(app, "tokenAddress", app.serviceOptions.rateLimit),
    rateLimitHook(app, "token", app.serviceOptions.rateLimit),
  ].flatMap((hook) => (hook ? [hook] : []));
  app.post(TOKEN_PATH, { ...(limits.length > 0 ? { preHandler: limits } : {}) }, async (request, reply) => {
    const form = (request.body ?? {}) as Record<string, string>;
    const isForm = (request.headers["content-type"] ?? "")
      .toLowerCase()
      .startsWith("application/x-www-form-urlencoded");
    if (!isForm || typeof request.body !== "object" || request.body === null) {
      throw new OAuthProblem(
        400,
        "invalid_request",
        "send the fields grant_type, client_id, client_secret and scope as application/x-www-form-urlencoded",
      );
    }
    if (!form.grant_type)
      throw new OAuthProblem(
        400,
        "invalid_request",
        "the field 'grant_type' is missing; send grant_type=client_credentials",
      );
    if (form.grant_type !== "client_credentials") {
      throw new OAuthProblem(400, "unsupported_grant_type", "only grant_type=client_credentials is supported");
    }
    const basic = basicCredentials(request.headers.authorization);
    const clientId = form.client_id ?? basic?.id;
    const secret = form.client_secret ?? basic?.secret;
    if (!clientId)
      throw new OAuthProblem(
        400,
        "invalid_request",
        "the field 'client_id' is missing; send the application's client id",
      );
    if (!secret)
      throw new OAuthProblem(
        400,
        "invalid_request",
        "the field 'client_secret' is missing; send the application's current client secret",
      );

    // Unknown ids are checked against a decoy hash so both failures take as long and read the same.
    const decoy = decoyHash();
    const application = await app.store.apps.application(clientId);
    const valid = await verifySecret(secret, application?.secret_hash ?? decoy);
    if (!application || !valid) {
      throw new OAuthProblem(
        401,
        "invalid_client",
        "unknown client_id or wrong client_secret (a regenerated secret replaces the old one)",
        basic ? { "www-authenticate": 'Basic realm="mdps"' } : {},
      );
    }

    const assigned = parseScopes(application.scopes);
    const requested = parseScopes(form.scope ?? "");
    const unknown = requested.filter((s) => !isScope(s));
    if (unknown.length > 0) {
      throw new OAuthProblem(
        400,
        "invalid_scope",
        `unknown scope(s): ${unknown.join(" ")}; the scopes are: ${SCOPES.join(" ")}`,
      );
    }
    const unassigned = requested.filter((s) => !assigned.includes(s));
    if (unassigned.length > 0) {
      throw new OAuthProblem(
        400,
        "invalid_scope",
        `scope(s) not assigned to this application: ${unassigned.join(" ")}; it has: ${assigned.join(" ")}`,
      );
    }
    const scopes = requested.length > 0 ? requested : assigned;
    const ttl = app.serviceOptions.tokenTtlSeconds;
    const token = await app.store.tokens.issue({ clientId, modelId: application.model_id, scopes, ttlSeconds: ttl });
    return reply
      .headers({ "cache-control": "no-store", pragma: "no-cache" })
      .send({ access_token: token, token_type: "Bearer", expires_in: ttl, scope: scopes.join(" ") });
  });
  return Promise.resolve();
}

export const tokenRoutes = fp(registerTokenRoutes, {
  name: "mdps-token-routes",
  fastify: "5.x",
  dependencies: ["mdps-errors", "mdps-store", "mdps-rate-limit"],
  encapsulate: true,
});
