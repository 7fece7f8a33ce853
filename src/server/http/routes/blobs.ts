import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { ENDPOINT_SCOPES, uuid } from "../../../core/contract/index.js";
import { attachment } from "../../blob-bytes/download-name.js";
import { parseRange } from "../../blob-bytes/byte-range.js";
import { openBlobFile, verifiedPart, verifiedWhole } from "../../blobs/blob-reads.js";
import { deleteBlob, updateBlob, uploadBlob } from "../../blobs/blob-writes.js";
import { etagMatches } from "../../domain/etags.js";
import { assertOwnModel } from "../plugins/auth.js";
import { HttpProblem } from "../problems.js";
import { readBlobForm } from "./blob-form.js";

const modelParams = z.object({ modelId: uuid });
const blobParams = z.object({ modelId: uuid, blobId: uuid });

/** The blob API: each route parses, calls the blob service (src/server/blobs/) and answers. */
function registerBlobRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const store = app.store;
  const base = "/api/model/:modelId/shared/blob";
  const blobsPath = (modelId: string) => base.replace(":modelId", modelId);

  api.post(
    `${base}/upload`,
    { schema: { params: modelParams }, config: { scope: ENDPOINT_SCOPES.blobUpload } },
    async (request) => {
      const { modelId } = request.params;
      assertOwnModel(request, modelId, "path modelId");
      const form = await readBlobForm(request, store.files);
      return uploadBlob({ store, modelId, form, blobsPath: blobsPath(modelId), log: request.log });
    },
  );

  api.put(
    `${base}/:blobId/update`,
    { schema: { params: blobParams }, config: { scope: ENDPOINT_SCOPES.blobUpdate } },
    async (request) => {
      const { modelId, blobId } = request.params;
      assertOwnModel(request, modelId, "path modelId");
      return updateBlob({
        store,
        modelId,
        blobId,
        blobsPath: blobsPath(modelId),
        log: request.log,
        ifMatch: request.headers["if-match"],
        readForm: () => readBlobForm(request, store.files),
      });
    },
  );

  api.get(
    `${base}/:blobId/download`,
    { schema: { params: blobParams }, config: { scope: ENDPOINT_SCOPES.blobDownload } },
    async (request, reply) => {
      const { modelId, blobId } = request.params;
      assertOwnModel(request, modelId, "path modelId");
      const { row, handle } = await openBlobFile({ store, modelId, blobId });
      reply.headers({
        "content-type": row.content_type,
        etag: `"${row.sha256}"`,
        "accept-ranges": "bytes",
        "content-disposition": attachment(row.name),
        "last-modified": new Date(row.updated_at).toUTCString(),
      });
      const ifNoneMatch = request.headers["if-none-match"];
      if (ifNoneMatch && etagMatches(ifNoneMatch, row.sha256)) {
        await handle.close();
        return reply.code(304).send();
      }
      const range = parseRange(request.headers.range, row.size_bytes);
      if (range === "unsatisfiable") {
        await handle.close();
        reply.removeHeader("content-disposition");
        throw new HttpProblem(
          416,
          `The Range is outside the blob, which has ${row.size_bytes} bytes. Ask for bytes within 0-${Math.max(0, row.size_bytes - 1)}.`,
          {
            headers: { "content-range": `bytes */${row.size_bytes}` },
          },
        );
      }
      if (range) {
        const part = await verifiedPart({ store, row, handle, ...range });
        reply.code(206).header("content-range", `bytes ${range.start}-${range.end}/${row.size_bytes}`);
        reply.header("content-length", range.end - range.start + 1);
        return reply.send(part);
      }
      reply.header("content-length", row.size_bytes);
      return reply.send(verifiedWhole({ store, row, handle, log: request.log }));
    },
  );

  api.delete(
    `${base}/:blobId/delete`,
    { schema: { params: blobParams }, config: { scope: ENDPOINT_SCOPES.blobDelete } },
    async (request) => {
      const { modelId, blobId } = request.params;
      assertOwnModel(request, modelId, "path modelId");
      return deleteBlob({ store, modelId, blobId });
    },
  );
  return Promise.resolve();
}

export const blobRoutes = fp(registerBlobRoutes, {
  name: "mdps-blob-routes",
  fastify: "5.x",
  dependencies: ["mdps-auth", "mdps-store"],
  encapsulate: true,
});
