/**
 * Builds the foreign service's Fastify app: fault switches first, then the token exchange, the
 * health check, blobs and jobs, with one error handler that decides every error body.
 */
import multipart from "@fastify/multipart";
import Fastify, { type FastifyError, type FastifyInstance } from "fastify";
import { registerTokenRoute, sendTokenError, TOKEN_PATH, type TokenIssuer } from "./auth.js";
import { registerBlobRoutes } from "./blob-routes.js";
import type { BlobStore } from "./blob-store.js";
import { aspnetProblem, HttpError, UnauthorizedError, unauthorizedProblem } from "./errors.js";
import { registerFaults } from "./faults.js";
import { registerJobRoutes } from "./job-routes.js";
import type { JobRunner } from "./job-runner.js";
import type { SignedLinks } from "./signed-links.js";
import type { RequestLine, Settings } from "./switches.js";
import { OPENAPI_PATH, openApiDocument } from "./openapi.js";
import { springError } from "./wire-style.js";

export interface AppDeps {
  readonly modelId: string;
  readonly settings: Settings;
  readonly issuer: TokenIssuer;
  readonly blobs: BlobStore;
  readonly runner: JobRunner;
  readonly links: SignedLinks;
  /** Receives every request line as it arrives, faults included. */
  readonly seen: (line: RequestLine) => void;
}

/**
 * The model API, under the context path; with `authOrigin: "same"` the token exchange too.
 * `buildAuthApp` serves the token exchange alone, for `authOrigin: "separate"`.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  app.addHook("onRequest", (request, _reply, done) => {
    deps.seen({ method: request.method, path: request.url.split("?")[0] ?? request.url });
    done();
  });
  registerFaults(app, deps.settings);
  await app.register(multipart, { limits: { fileSize: deps.settings.maxUploadBytes, files: 4 } });
  handleErrors(app, deps.settings);

  if (deps.settings.authOrigin === "same") registerTokenRoute(app, deps.issuer);
  await app.register(
    (api, _options, done) => {
      api.get("/api/shared/health", { preHandler: deps.issuer.require("shared.health.read") }, () => ({
        status: deps.settings.healthStatus,
      }));
      if (deps.settings.openApi) api.get(OPENAPI_PATH, () => openApiDocument(deps.settings));
      registerBlobRoutes(api, deps);
      registerJobRoutes(api, deps);
      done();
    },
    { prefix: deps.settings.contextPath },
  );
  return app;
}

export async function buildAuthApp(deps: Pick<AppDeps, "settings" | "issuer" | "seen">): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  app.addHook("onRequest", (request, _reply, done) => {
    deps.seen({ method: request.method, path: request.url.split("?")[0] ?? request.url });
    done();
  });
  handleErrors(app, deps.settings);
  registerTokenRoute(app, deps.issuer);
  return Promise.resolve(app);
}

/** One error handler decides every error body: the token endpoint's text, 401 ProblemDetails, then the switch's shape. */
function handleErrors(app: FastifyInstance, settings: AppDeps["settings"]): void {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    const httpError = toHttpError(error);
    if (request.routeOptions.url === TOKEN_PATH) return sendTokenError(reply, httpError, settings);
    reply.status(httpError.status).headers(httpError.headers);
    const path = request.url.split("?")[0] ?? request.url;
    if (httpError instanceof UnauthorizedError && settings.errorBodies !== "spring") {
      return reply.type("application/problem+json").send(unauthorizedProblem(httpError.message, path));
    }
    switch (settings.errorBodies) {
      case "aspnet":
        return reply.type("application/problem+json; charset=utf-8").send(aspnetProblem(httpError));
      case "spring":
        return reply.type("application/json").send(springError(httpError, path));
      case "message":
        return reply.type("application/json; charset=utf-8").send({ message: httpError.message });
    }
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split("?")[0] ?? "";
    const error = new HttpError(404, `no route for ${request.method} ${path}`);
    return reply
      .status(404)
      .send(settings.errorBodies === "spring" ? springError(error, path) : { message: error.message });
  });
}

/** Our own errors pass through; a framework 4xx keeps its status and message; anything else is a bare 500. */
function toHttpError(error: FastifyError | HttpError): HttpError {
  if (error instanceof HttpError) return error;
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return new HttpError(status, error.message);
  return new HttpError(500, "internal error");
}
