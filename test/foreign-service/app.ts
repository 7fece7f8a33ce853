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

const MAX_FILE_BYTES = 64 * 1024 * 1024;

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  app.addHook("onRequest", (request, _reply, done) => {
    deps.seen({ method: request.method, path: request.url.split("?")[0] ?? request.url });
    done();
  });
  registerFaults(app, deps.settings);
  await app.register(multipart, { limits: { fileSize: MAX_FILE_BYTES, files: 4 } });

  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    const httpError = toHttpError(error);
    if (request.routeOptions.url === TOKEN_PATH) return sendTokenError(reply, httpError, deps.settings);
    reply.status(httpError.status).headers(httpError.headers);
    if (httpError instanceof UnauthorizedError) {
      const path = request.url.split("?")[0] ?? request.url;
      return reply.type("application/problem+json").send(unauthorizedProblem(httpError.message, path));
    }
    if (deps.settings.errorBodies === "aspnet") {
      return reply.type("application/problem+json; charset=utf-8").send(aspnetProblem(httpError));
    }
    return reply.type("application/json; charset=utf-8").send({ message: httpError.message });
  });
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send({ message: `no route for ${request.method} ${request.url.split("?")[0] ?? ""}` }),
  );

  registerTokenRoute(app, deps.issuer);
  app.get("/api/shared/health", { preHandler: deps.issuer.require("shared.health.read") }, () => ({
    status: "Healthy",
  }));
  registerBlobRoutes(app, deps);
  registerJobRoutes(app, deps);
  return app;
}

/** Our own errors pass through; a framework 4xx keeps its status and message; anything else is a bare 500. */
function toHttpError(error: FastifyError | HttpError): HttpError {
  if (error instanceof HttpError) return error;
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return new HttpError(status, error.message);
  return new HttpError(500, "internal error");
}
