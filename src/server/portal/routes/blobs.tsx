import { open } from "node:fs/promises";
import type { FastifyInstance } from "fastify";
import { uuid } from "../../../core/contract/index.js";
import { contentTypeOf } from "../../blob-bytes/blob-content-type.js";
import { attachment, downloadName } from "../../blob-bytes/download-name.js";
import { frameFor, type PortalContext } from "../context.js";
import { confirmForm, parseForm } from "../forms.js";
import { readBlobTable, unreadable } from "../model-data.js";
import { consumeNonce, openOneTimeForm } from "../one-time-forms.js";
import { BlobDeletePage, BlobPage, BlobsPage } from "../pages/blobs.js";
import { PortalError, staleForm } from "../portal-error.js";
import { sendPage } from "../render.js";
import { modelFromParams, noticeOf } from "./models.js";

type BlobParams = { Params: { modelId: string; blobId: string } };

function noSuchBlob(modelId: string, blobId: string): PortalError {
  return new PortalError(
    404,
    "No such blob",
    `Model ${modelId} has no blob ${blobId}. It may have been deleted.`,
    "Pick the blob from the model's Blobs page.",
    [{ label: "Open the Blobs page", href: `/models/${modelId}/blobs` }],
  );
}

/** Blobs (list, preview, download, delete). Read from the store directly. */
export function blobRoutes(app: FastifyInstance, ctx: PortalContext): void {
  const blobOf = async (params: { modelId: string; blobId: string }) => {
    const model = await modelFromParams(ctx, params);
    const blob = uuid.safeParse(params.blobId).success
      ? await ctx.store.blobs.get(model.model_id, params.blobId)
      : undefined;
    if (!blob) throw noSuchBlob(model.model_id, params.blobId);
    return { model, blob };
  };

  app.get<{ Params: { modelId: string } }>("/models/:modelId/blobs", async (request, reply) => {
    const model = await modelFromParams(ctx, request.params);
    return sendPage(
      reply,
      <BlobsPage
        frame={frameFor(ctx, reply)}
        model={model}
        blobs={await ctx.portal.blobs(model.model_id)}
        notice={noticeOf(request.query)}
      />,
    );
  });

  app.get<BlobParams>("/models/:modelId/blobs/:blobId", async (request, reply) => {
    const { model, blob } = await blobOf(request.params);
    const why = unreadable(blob);
    let preview: { table: Awaited<ReturnType<typeof readBlobTable>> } | { missing: string };
    if (why) preview = { missing: why };
    else {
      try {
        preview = { table: await readBlobTable(ctx.store, blob) };
      } catch (err) {
        preview = { missing: `It could not be read as ${blob.record_type}: ${(err as Error).message}` };
      }
    }
    return sendPage(reply, <BlobPage frame={frameFor(ctx, reply)} model={model} blob={blob} preview={preview} />);
  });

  app.get<BlobParams>("/models/:modelId/blobs/:blobId/download", async (request, reply) => {
    const { blob } = await blobOf(request.params);
    const handle = await open(ctx.store.files.path(blob.id, blob.revision), "r").catch(() => {
      throw noSuchBlob(blob.model_id, blob.id);
    });
    return reply
      .type(contentTypeOf(blob.record_type, blob.encrypted))
      .header("content-disposition", attachment(downloadName(blob)))
      .header("content-length", String(blob.size_bytes))
      .header("cache-control", "private, no-cache")
      .send(handle.createReadStream());
  });

  app.get<BlobParams>("/models/:modelId/blobs/:blobId/delete", async (request, reply) => {
    const model = await modelFromParams(ctx, request.params);
    const form = await openOneTimeForm(ctx, request, reply, "delete-blob", request.params.blobId);
    if (form.kind === "redirected") return form.reply;
    if (form.kind === "used") return reply.redirect(`/models/${model.model_id}/blobs?notice=blob-deleted`, 303);
    const { blob } = await blobOf(request.params);
    return sendPage(
      reply,
      <BlobDeletePage frame={frameFor(ctx, reply)} model={model} blob={blob} nonce={form.nonce} />,
    );
  });

  app.post<BlobParams>("/models/:modelId/blobs/:blobId/delete", async (request, reply) => {
    const model = await modelFromParams(ctx, request.params);
    const blobId = request.params.blobId;
    const form = parseForm(confirmForm, request.body);
    if (!form.ok) throw staleForm(`/models/${model.model_id}/blobs/${blobId}/delete`);
    const nonce = form.data.nonce;
    // The same lock and steps as the API's blob delete, under the form's nonce.
    const removed = await ctx.store.blobLocks.run(blobId, async () => {
      let path: string | undefined;
      const result = await consumeNonce(ctx.portal, { nonce, action: "delete-blob", target: blobId }, async () => {
        const row = await ctx.store.blobs.get(model.model_id, blobId);
        if (!row) throw noSuchBlob(model.model_id, blobId);
        await ctx.store.blobs.delete(row);
        path = ctx.store.files.path(blobId, row.revision);
        return { value: blobId, outcome: blobId };
      });
      if (path) await ctx.store.files.remove(path);
      return result;
    });
    switch (removed.kind) {
      case "done":
      case "used":
        return reply.redirect(`/models/${model.model_id}/blobs?notice=blob-deleted`, 303);
      case "unknown":
        throw staleForm(`/models/${model.model_id}/blobs/${blobId}/delete`);
    }
  });
}
