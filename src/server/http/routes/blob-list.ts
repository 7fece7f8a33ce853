import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { ENDPOINT_SCOPES, uuid, type BlobRecord } from "../../../core/contract/index.js";
import { assertOwnModel } from "../plugins/auth.js";
import { notFound } from "../problems.js";
import { toBlobRecord } from "../../domain/blobs.js";
import { blobListQuerystring } from "../../domain/listing.js";

const modelParams = z.object({ modelId: uuid });
const blobParams = z.object({ modelId: uuid, blobId: uuid });

/**
 * Blob metadata (docs/contract.md#extensions): one blob's record, and the model's blobs newest
 * first in pages. Another model's blobs are as absent as missing ones.
 */
function registerBlobListRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const read = { scope: ENDPOINT_SCOPES.blobRead };

  api.get(
    "/api/model/:modelId/shared/blob/:blobId",
    { schema: { params: blobParams }, config: read },
    async (request): Promise<BlobRecord> => {
      const { modelId, blobId } = request.params;
      assertOwnModel(request, modelId, "path modelId");
      const row = await app.store.blobs.get(modelId, blobId);
      if (!row) throw notFound("blob", blobId);
      return toBlobRecord(row);
    },
  );

  api.get(
    "/api/model/:modelId/shared/blobs",
    { schema: { params: modelParams, querystring: blobListQuerystring }, config: read },
    async (request) => {
      const { modelId } = request.params;
      assertOwnModel(request, modelId, "path modelId");
      const page = await app.store.listings.blobs(modelId, request.query);
      return { items: page.rows.map(toBlobRecord), next_cursor: page.next_cursor };
    },
  );
  return Promise.resolve();
}

export const blobListRoutes = fp(registerBlobListRoutes, {
  name: "mdps-blob-list-routes",
  fastify: "5.x",
  dependencies: ["mdps-auth", "mdps-store"],
  encapsulate: true,
});
