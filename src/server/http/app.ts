import { randomUUID } from "node:crypto";
import multipart from "@fastify/multipart";
import type { FastifyInstance, FastifyRequest, FastifyServerOptions } from "fastify";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import { HttpProblem } from "./problems.js";
import { answerClientError, answerFrameworkError } from "./connection-errors.js";
import type { ResolvedOptions } from "../options.js";
import { authPlugin } from "./plugins/auth.js";
import { errorsPlugin } from "./plugins/errors.js";
import { jobsPlugin } from "./plugins/jobs.js";
import { rateLimitHook, rateLimitPlugin } from "./plugins/rate-limit.js";
import { storePlugin, type Store } from "./plugins/store.js";
import { portalPlugin } from "../portal/index.js";
import { blobListRoutes } from "./routes/blob-list.js";
import { blobRoutes } from "./routes/blobs.js";
import { healthRoutes } from "./routes/health.js";
import { jobListRoutes } from "./routes/job-list.js";
import { jobRoutes } from "./routes/jobs.js";
import { tokenRoutes } from "./routes/token.js";

/** Log fields that may hold a secret; pino replaces them before a line is written. */
export const REDACTED_LOG_PATHS = [
  "req.headers.authorization",
  "req.headers.cookie",
  "req.body",
  "body",
  "*.client_secret",
  "*.access_token",
  "*.input_encryption_key",
  "*.encryption_key",
  "headers.authorization",
];

/**
 * The request fields of a log line, without the query string: a caller may put a
 * token or client secret there (`?access_token=...`, a token form sent as a query).
 */
export function requestLogLine(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: request.url.split("?")[0],
    host: request.host,
    remoteAddress: request.ip,
  };
}

/** How long a client is told to wait before sending a request again that met a stopping replica. */
const STOPPING_RETRY_SECONDS = 1;

/** What a request that arrives while this process stops hears: nothing of it was done. */
function stoppingProblem(): HttpProblem {
  return new HttpProblem(
    503,
    `This service process is stopping: the request was not handled and nothing was stored. Send it again in ${STOPPING_RETRY_SECONDS} s (behind a proxy, another replica answers it).`,
    {
      headers: { "retry-after": String(STOPPING_RETRY_SECONDS), connection: "close" },
      body: { code: "service_stopping" },
    },
  );
}

export function fastifyOptions(options: ResolvedOptions): FastifyServerOptions {
  return {
    logger: options.logger
      ? {
          level: "info",
          stream: options.logDestination ?? process.stderr,
          redact: { paths: REDACTED_LOG_PATHS, censor: "***" },
          serializers: { req: requestLogLine },
        }
      : false,
    clientErrorHandler: answerClientError,
    frameworkErrors: answerFrameworkError,
    bodyLimit: 1024 * 1024,
    // Answered by mdpsApp's own hook instead: problem+json with Retry-After (Fastify's is a plain 503).
    return503OnClosing: false,
    // Every response carries its request id (x-request-id) so a user can quote it.
    genReqId: () => randomUUID(),
    requestIdHeader: false,
  };
}

/**
 * The whole service as one Fastify plugin: store, job runner, errors, then the
 * token endpoint and the bearer-authenticated model API. `server.ts` only listens.
 */
export async function mdpsApp(
  app: FastifyInstance,
  options: {
    service: ResolvedOptions;
    /** Handed the store once it is open: the plugin's context is its own, so the caller's app has no `store`. */
    onStore?: (store: Store) => void;
  },
): Promise<void> {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest("grant", null);
  let stopping = false;
  app.addHook("preClose", (done) => {
    stopping = true;
    done();
  });
  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
    if (stopping) throw stoppingProblem();
  });
  await app.register(errorsPlugin, { maxBlobBytes: options.service.maxBlobBytes });
  await app.register(storePlugin, { service: options.service });
  options.onStore?.(app.store);
  await app.register(jobsPlugin);
  await app.register(rateLimitPlugin);

  await app.register(tokenRoutes);
  await app.register(portalPlugin);
  await app.register(async (api) => {
    await api.register(authPlugin);
    // After authentication (same hook, added later), so the limit keys on the token's grant.
    const apiLimit = rateLimitHook(api, "api", options.service.rateLimit);
    if (apiLimit) api.addHook("onRequest", apiLimit);
    await api.register(multipart, {
      // Backstops far above the form's own limits (blob-form.ts), which answer first.
      limits: { fileSize: options.service.maxBlobBytes, files: 1, fields: 4096, fieldSize: 64 * 1024, parts: 4096 },
    });
    await api.register(blobRoutes);
    await api.register(jobRoutes);
    await api.register(blobListRoutes);
    await api.register(jobListRoutes);
    await api.register(healthRoutes);
  });
}
