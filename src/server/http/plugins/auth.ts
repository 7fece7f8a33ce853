import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { Scope } from "../../../core/contract/index.js";
import { HttpProblem } from "../problems.js";
import type { TokenGrant } from "../../domain/tokens.js";

declare module "fastify" {
  interface FastifyRequest {
    grant: TokenGrant | null;
  }
  interface FastifyContextConfig {
    /** The scope a model API route needs (docs/contract.md#scopes). */
    scope?: Scope;
  }
}

const unauthorized = (detail: string) =>
  new HttpProblem(401, detail, { headers: { "www-authenticate": 'Bearer realm="mdps"' } });

/** The grant of an authenticated request (routes only run after `authenticate`). */
export function grantOf(request: FastifyRequest): TokenGrant {
  if (!request.grant) throw new Error("route reached without authentication");
  return request.grant;
}

/**
 * Bearer authentication and the scope check of the model API, as onRequest hooks:
 * they run before body parsing and validation, so an unauthenticated caller learns
 * nothing about the request's shape. Register inside the model API's context.
 */
export const authPlugin = fp(
  (app: FastifyInstance, _options, done) => {
    // An async hook: its rejection is answered as the error.
    app.addHook("onRequest", async (request) => {
      const header = request.headers.authorization;
      if (!header) {
        throw unauthorized(
          "This endpoint needs 'Authorization: Bearer <token>'. Get a token from POST /api/authorization/exchange.",
        );
      }
      const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
      if (!match) {
        throw unauthorized(
          "The Authorization header must be 'Bearer <token>'. Get a token from POST /api/authorization/exchange.",
        );
      }
      const grant = await app.store.tokens.verify(match[1]!);
      if (!grant) {
        throw unauthorized(
          "The access token is unknown, expired or from another service. Request a new one from POST /api/authorization/exchange.",
        );
      }
      request.grant = grant;
      const scope = request.routeOptions.config.scope;
      if (scope && !grant.scopes.includes(scope)) {
        throw new HttpProblem(
          403,
          `This endpoint needs the scope '${scope}', which the token does not carry. Assign it to the application and request a token that includes it.`,
          { body: { required_scope: scope } },
        );
      }
    });
    done();
  },
  { name: "mdps-auth", fastify: "5.x", dependencies: ["mdps-errors", "mdps-store"] },
);

/** A path or body model_id of another model than the token's is a 403. */
export function assertOwnModel(request: FastifyRequest, modelId: string, field: string): void {
  if (modelId !== grantOf(request).modelId) {
    throw new HttpProblem(
      403,
      `The ${field} ${modelId} is not the model of this token's application. Use the model id the application was registered for, or a token of that model's application.`,
    );
  }
}
