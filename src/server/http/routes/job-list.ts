import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { ENDPOINT_SCOPES } from "../../../core/contract/index.js";
import { grantOf } from "../plugins/auth.js";
import { jobFields } from "../../domain/job-rows.js";
import { jobListQuerystring } from "../../domain/listing.js";

/**
 * Job list (docs/contract.md#extensions): the token's model's jobs, newest first, in pages,
 * without their events. The generic and the preprocessing paths list the same jobs.
 */
function registerJobListRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const read = { scope: ENDPOINT_SCOPES.jobRead };

  for (const prefix of ["/api/job", "/api/ml/preprocessing/job"]) {
    api.get(`${prefix}/list`, { schema: { querystring: jobListQuerystring }, config: read }, async (request) => {
      const page = await app.store.listings.jobs(grantOf(request).modelId, request.query);
      return { items: page.rows.map(jobFields), next_cursor: page.next_cursor };
    });
  }
  return Promise.resolve();
}

export const jobListRoutes = fp(registerJobListRoutes, {
  name: "mdps-job-list-routes",
  fastify: "5.x",
  dependencies: ["mdps-auth", "mdps-store"],
  encapsulate: true,
});
