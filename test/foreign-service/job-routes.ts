/**
 * Job send (preprocessing and generic), get, logs and result. Every send creates a new job with
 * an id of the service's own unless `idempotentSend` is on. Both families of get/logs/result
 * serve every job unless `jobFamilies` is `separate`; a `locationReadBase` serves every job.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { TokenIssuer } from "./auth.js";
import type { BlobStore } from "./blob-store.js";
import { refuseArchived } from "./blob-routes.js";
import { badRequest, HttpError, notFound } from "./errors.js";
import { badGatewayPage } from "./html-pages.js";
import { parsePreprocessingRequest, parseSendJobRequest, type PreprocessingSpec } from "./job-requests.js";
import { TERMINAL_STATES, type Job, type JobRunner } from "./job-runner.js";
import { FITTED_QUERY, jobLogs, jobRecord, jobResult } from "./job-views.js";
import type { SignedLinks } from "./signed-links.js";
import type { Settings } from "./switches.js";

const PREPROCESSING = "/api/ml/preprocessing/job";
const GENERIC = "/api/job";
const MAX_LIMIT = 1000;

export interface JobRouteDeps {
  readonly modelId: string;
  readonly blobs: BlobStore;
  readonly runner: JobRunner;
  readonly issuer: TokenIssuer;
  readonly links: SignedLinks;
  readonly settings: Settings;
}

interface IdRoute {
  Params: { id: string };
  Querystring: { limit?: string; [FITTED_QUERY]?: string };
}

export function registerJobRoutes(app: FastifyInstance, deps: JobRouteDeps): void {
  const { runner, issuer, settings } = deps;
  const scope = (name: string): string | undefined => (settings.requirePreprocessingScopes ? name : undefined);
  const execute = { preHandler: issuer.require(scope("ml.preprocessing.execute")) };
  const read = { preHandler: issuer.require(scope("ml.preprocessing.read")) };
  let firstSendAnswered = false;

  const send = async (
    reply: FastifyReply,
    spec: PreprocessingSpec,
    via: Job["via"],
    clientJobId: string | undefined,
  ): Promise<FastifyReply> => {
    const input = deps.blobs.find(deps.modelId, spec.inputBlobId);
    if (input === undefined) throw badRequest(`input_blob_id ${spec.inputBlobId}: blob not found`);
    refuseArchived(input, settings, "Reading the input blob");
    const repeated = settings.idempotentSend && clientJobId !== undefined && runner.findByClientJobId(clientJobId);
    const job = repeated || runner.submit(deps.modelId, spec, via, clientJobId);
    if (settings.failFirstSendWith502AfterCreating && !firstSendAnswered) {
      firstSendAnswered = true;
      return reply.status(502).type("text/html").send(badGatewayPage());
    }
    firstSendAnswered = true;
    if (settings.sendStatus === 202) {
      const base = settings.locationReadBase ?? (via === "generic" ? GENERIC : PREPROCESSING);
      reply.status(202).header("location", `${base}/${job.id}/get`);
    }
    return reply.send(jobRecord(job, settings));
  };

  app.post(`${PREPROCESSING}/send`, execute, async (request, reply) => {
    const spec = parsePreprocessingRequest(request.body, deps.modelId, settings);
    return send(reply, spec, "preprocessing", spec.jobId ?? idempotencyKey(request));
  });

  if (settings.genericJobSend) {
    app.post(`${GENERIC}/send`, execute, async (request, reply) => {
      const { jobId, spec } = parseSendJobRequest(request.body, deps.modelId, settings);
      return send(reply, spec, "generic", jobId);
    });
  }

  const families: ReadonlyArray<readonly [string, Job["via"] | undefined]> = [
    [PREPROCESSING, settings.jobFamilies === "separate" ? "preprocessing" : undefined],
    [GENERIC, settings.jobFamilies === "separate" ? "generic" : undefined],
    ...(settings.locationReadBase === undefined ? [] : [[settings.locationReadBase, undefined] as const]),
  ];
  for (const [base, only] of families) {
    const findJob = (id: string): Job => {
      const job = runner.get(id);
      if (job === undefined || (only !== undefined && job.via !== only)) throw notFound(`job ${id} not found`);
      // Still on the queue behind the send: not visible to reads yet.
      if (Date.now() - Date.parse(job.createdAt) < settings.notVisibleAfterSendMs)
        throw notFound(`job ${id} not found`);
      return job;
    };
    app.get<IdRoute>(`${base}/:id/get`, read, (request) => {
      limit(request.query.limit); // accepted and checked; a single record has nothing to limit
      return jobRecord(findJob(request.params.id), settings);
    });
    app.get<IdRoute>(`${base}/:id/logs`, read, (request) =>
      jobLogs(findJob(request.params.id), limit(request.query.limit), settings),
    );
    app.get<IdRoute>(`${base}/:id/result`, read, (request) => {
      const job = findJob(request.params.id);
      if (!TERMINAL_STATES.includes(job.state)) {
        throw new HttpError(409, `job ${job.id} has not finished; its result is not available yet`);
      }
      return jobResult(job, settings, deps.links, {
        origin: `${request.protocol}://${request.host}`,
        fittedAsked: request.query[FITTED_QUERY]?.toLowerCase() === "true",
      });
    });
  }
}

function limit(value: string | undefined): number {
  if (value === undefined) return MAX_LIMIT;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > MAX_LIMIT)
    throw badRequest(`limit must be an integer from 1 to ${MAX_LIMIT}`);
  return n;
}

function idempotencyKey(request: FastifyRequest): string | undefined {
  const key = request.headers["idempotency-key"];
  return typeof key === "string" && key !== "" ? key : undefined;
}
