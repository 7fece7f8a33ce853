import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { ENDPOINT_SCOPES, limitQuery, uuid } from "../../../core/contract/index.js";
import { sendJob, sendPreprocessing } from "../../jobs/submission.js";
import { grantOf } from "../plugins/auth.js";
import { HttpProblem, notFound } from "../problems.js";
import type { JobErrorBody } from "../../domain/job-rows.js";

const idParams = z.object({ id: uuid });
const limitParams = z.object({ limit: limitQuery });
/** Job get: `limit`, and the `wait`/`since` of docs/contract.md#waiting-without-polling. */
const getParams = z.object({
  limit: limitQuery,
  wait: z.coerce
    .number({ error: "must be a number of seconds from 0 to 60" })
    .min(0, "must be at least 0 seconds")
    .max(60, "must be at most 60 seconds")
    .default(0),
  since: z.coerce.number({ error: "must be a whole number" }).int("must be a whole number").optional(),
});

/**
 * Job endpoints. The generic `/api/job/...` and the preprocessing
 * `/api/ml/preprocessing/job/...` read endpoints share handlers: they see the same jobs.
 */
function registerJobRoutes(app: FastifyInstance, _options: unknown, done: () => void): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { jobs } = app.store;
  const send = { config: { scope: ENDPOINT_SCOPES.jobSend } };
  const read = { scope: ENDPOINT_SCOPES.jobRead };

  api.post("/api/ml/preprocessing/job/send", send, (request) => sendPreprocessing(app, request));
  api.post("/api/job/send", send, (request) => sendJob(app, request));

  for (const prefix of ["/api/job", "/api/ml/preprocessing/job"]) {
    api.get(
      `${prefix}/:id/get`,
      { schema: { params: idParams, querystring: getParams }, config: read },
      async (request, reply) => {
        const modelId = grantOf(request).modelId;
        let row = await jobs.get(modelId, request.params.id);
        if (!row) throw notFound("job", request.params.id);
        const { wait, since, limit } = request.query;
        // Without `since` there is nothing to compare with: the record comes at once.
        if (wait > 0 && since !== undefined) {
          const gone = new AbortController();
          const onClose = () => gone.abort();
          reply.raw.once("close", onClose);
          try {
            await app.jobWaiters.wait(row.id, since, wait * 1000, gone.signal);
          } finally {
            reply.raw.off("close", onClose);
          }
          row = await jobs.get(modelId, request.params.id);
          if (!row) throw notFound("job", request.params.id);
        }
        return await jobs.record(row, limit);
      },
    );

    api.get(
      `${prefix}/:id/logs`,
      { schema: { params: idParams, querystring: limitParams }, config: read },
      async (request) => {
        const row = await jobs.get(grantOf(request).modelId, request.params.id);
        if (!row) throw notFound("job", request.params.id);
        return await jobs.logs(row, request.query.limit);
      },
    );

    // Extension (docs/contract.md#extensions): queued or running -> cancelled, whichever process runs it.
    api.post(`${prefix}/:id/cancel`, { schema: { params: idParams }, ...send }, async (request) => {
      const row = await jobs.get(grantOf(request).modelId, request.params.id);
      if (!row) throw notFound("job", request.params.id);
      const outcome = await app.jobRunner.cancel(row.id);
      if (!outcome) throw notFound("job", request.params.id);
      if (!outcome.cancelled && outcome.row.status !== "cancelled") {
        throw new HttpProblem(
          409,
          `The job already ended as ${outcome.row.status}; only a queued or running job can be cancelled.`,
          { body: { job_id: row.id, job_status: outcome.row.status } },
        );
      }
      return await jobs.record(outcome.row, 1000);
    });

    api.get(`${prefix}/:id/result`, { schema: { params: idParams }, config: read }, async (request) => {
      const row = await jobs.get(grantOf(request).modelId, request.params.id);
      if (!row) throw notFound("job", request.params.id);
      if (row.status === "succeeded" && row.result) return JSON.parse(row.result) as unknown;
      if (row.status === "queued" || row.status === "running") {
        throw new HttpProblem(
          409,
          `The job is ${row.status}; its result exists once it has succeeded. Poll ${prefix}/${row.id}/get until status is 'succeeded', then ask again.`,
          {
            body: { job_id: row.id, job_status: row.status },
          },
        );
      }
      const error = row.error ? (JSON.parse(row.error) as JobErrorBody) : { title: row.status, detail: "" };
      throw new HttpProblem(
        409,
        `The job ended as ${row.status}, so it has no result: ${error.title}. ${error.detail}`.trim(),
        {
          body: { job_id: row.id, job_status: row.status, error },
        },
      );
    });
  }
  done();
}

export const jobRoutes = fp(registerJobRoutes, {
  name: "mdps-job-routes",
  fastify: "5.x",
  dependencies: ["mdps-auth", "mdps-store", "mdps-jobs"],
  encapsulate: true,
});
