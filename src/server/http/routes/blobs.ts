import { randomUUID } from "node:crypto";
import { pipeline } from "node:stream";
import { open, type FileHandle } from "node:fs/promises";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { ENDPOINT_SCOPES, uuid, type BlobDeleted } from "../../../core/contract/index.js";
import { isEncryptedEnvelope } from "../../../core/crypto/index.js";
import { contentTypeOf } from "../../blob-bytes/blob-content-type.js";
import { attachment } from "../../blob-bytes/download-name.js";
import { BlobDamagedError, verifyFile, verifyingStream } from "../../blob-bytes/blob-check.js";
import { parseRange } from "../../blob-bytes/byte-range.js";
import { assertOwnModel } from "../plugins/auth.js";
import { HttpProblem, notFound } from "../problems.js";
import { nowIso } from "../../domain/clock.js";
import { toBlobRecord, type BlobContent, type BlobRow } from "../../domain/blobs.js";
import { settleBlobCommit } from "../../blobs/commit-settling.js";
import { readBlobForm, type BlobForm } from "./blob-form.js";

/** Downloads read 1 MiB at a time: about a third faster than the 64 KiB default on loopback. */
const READ_CHUNK_BYTES = 1 << 20;

/** How often an update or download retries after losing a race with another process. */
const UPDATE_RACE_ATTEMPTS = 10;

const modelParams = z.object({ modelId: uuid });
const blobParams = z.object({ modelId: uuid, blobId: uuid });

function contentOf(form: BlobForm): BlobContent {
  const encrypted = isEncryptedEnvelope(form.file.head);
  return {
    name: form.fields.Name,
    description: form.fields.Description ?? null,
    record_type: form.fields.RecordType,
    access_tier: form.fields.AccessTier,
    tags: form.fields.Tags,
    content_type: contentTypeOf(form.fields.RecordType, encrypted),
    size_bytes: form.file.sizeBytes,
    sha256: form.file.sha256,
    encrypted,
  };
}

/** `If-Match` holds a list of quoted etags or `*`; unquoted values are accepted too. */
export function etagMatches(header: string, sha256: string): boolean {
  return header
    .split(",")
    .map((t) => t.trim().replace(/^"(.*)"$/, "$1"))
    .some((t) => t === "*" || t === sha256);
}

const preconditionFailed = (row: BlobRow) =>
  new HttpProblem(
    412,
    "The blob changed since the If-Match ETag was read. Download it again (or read its ETag) and retry with the current ETag.",
    {
      headers: { etag: `"${row.sha256}"` },
    },
  );

const concurrentUpdate = () =>
  new HttpProblem(
    409,
    "The blob was being updated by other requests at the same time, and this update did not get its turn. Send it again.",
  );

function registerBlobRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { blobs, files, blobLocks, damage } = app.store;
  const damaged = async (row: BlobRow, reason: string) => {
    const err = new BlobDamagedError(row.id, row.revision, reason);
    await damage.record(err);
    return err;
  };
  const base = "/api/model/:modelId/shared/blob";

  api.post(
    `${base}/upload`,
    { schema: { params: modelParams }, config: { scope: ENDPOINT_SCOPES.blobUpload } },
    async (request) => {
      const { modelId } = request.params;
      assertOwnModel(request, modelId, "path modelId");
      const form = await readBlobForm(request, files);
      const id = randomUUID();
      let placed: string | undefined;
      try {
        placed = await files.place(form.file.path, id, 1);
        const row = await blobs.insert(id, modelId, 1, contentOf(form), nowIso());
        return toBlobRecord(row);
      } catch (err) {
        if (!placed) throw err;
        const row = await settleBlobCommit({
          store: app.store,
          err,
          placed,
          reread: () => blobs.get(modelId, id),
          howToCheck: `If it was, it is blob ${id} (GET ${base.replace(":modelId", modelId)}/${id}/download answers 200 with ETag "${form.file.sha256}"); if that answers 404, send the upload again.`,
          what: `upload of blob ${id}`,
        });
        return toBlobRecord(row);
      } finally {
        // After the commit: until then the temp link marks the placed file as this process's.
        await files.remove(form.file.path);
      }
    },
  );

  api.put(
    `${base}/:blobId/update`,
    { schema: { params: blobParams }, config: { scope: ENDPOINT_SCOPES.blobUpdate } },
    async (request) => {
      const { modelId, blobId } = request.params;
      assertOwnModel(request, modelId, "path modelId");
      const ifMatch = request.headers["if-match"];
      const before = await blobs.get(modelId, blobId);
      if (!before) throw notFound("blob", blobId);
      if (ifMatch && !etagMatches(ifMatch, before.sha256)) throw preconditionFailed(before);
      const form = await readBlobForm(request, files);
      const content = contentOf(form);
      return blobLocks.run(blobId, async () => {
        // The lock serialises updates within this process; another process may update
        // the same blob at once, so placing the next revision (EEXIST) or committing it
        // (the row moved on) can lose a race: then read the blob again and retry.
        for (let attempt = 1; ; attempt++) {
          const current = await blobs.get(modelId, blobId);
          if (!current || (ifMatch && !etagMatches(ifMatch, current.sha256))) {
            await files.remove(form.file.path);
            throw current ? preconditionFailed(current) : notFound("blob", blobId);
          }
          let placed: string;
          try {
            placed = await files.place(form.file.path, blobId, current.revision + 1);
          } catch (err) {
            const raced = (err as NodeJS.ErrnoException).code === "EEXIST";
            if (!raced || attempt >= UPDATE_RACE_ATTEMPTS) {
              await files.remove(form.file.path);
              throw raced ? concurrentUpdate() : err;
            }
            await new Promise((r) => setTimeout(r, Math.min(100, 10 * attempt)));
            continue;
          }
          let updated: BlobRow | undefined;
          try {
            updated = await blobs.replace(current, content, nowIso());
          } catch (err) {
            const next = current.revision + 1;
            try {
              updated = await settleBlobCommit({
                store: app.store,
                err,
                placed,
                // Only this update can have made revision `next`: it holds that revision's file name.
                reread: async () => {
                  const row = await blobs.get(modelId, blobId);
                  return row && row.revision >= next ? row : undefined;
                },
                whenCommitted: [files.path(blobId, current.revision)],
                howToCheck: `If it was, the blob's ETag is now "${content.sha256}" (read it with GET ${base.replace(":modelId", modelId)}/${blobId}/download); if it is still "${current.sha256}", send the update again.`,
                what: `update of blob ${blobId} to revision ${next}`,
              });
            } finally {
              await files.remove(form.file.path);
            }
            return toBlobRecord(updated);
          }
          if (!updated) {
            // Another process committed this revision first: our bytes stay in the temp file; retry.
            await files.remove(placed);
            if (attempt >= UPDATE_RACE_ATTEMPTS) {
              await files.remove(form.file.path);
              throw concurrentUpdate();
            }
            continue;
          }
          await files.remove(form.file.path);
          await files.remove(files.path(blobId, current.revision));
          return toBlobRecord(updated);
        }
      });
    },
  );

  api.get(
    `${base}/:blobId/download`,
    { schema: { params: blobParams }, config: { scope: ENDPOINT_SCOPES.blobDownload } },
    async (request, reply) => {
      const { modelId, blobId } = request.params;
      assertOwnModel(request, modelId, "path modelId");
      // Open under the blob's lock: an update in this process cannot delete this revision
      // between the lookup and the open. One in another process can: then look again.
      const { row, handle } = await blobLocks.run(blobId, async (): Promise<{ row: BlobRow; handle: FileHandle }> => {
        let missing: number | undefined;
        for (let attempt = 1; ; attempt++) {
          const found = await blobs.get(modelId, blobId);
          if (!found) throw notFound("blob", blobId);
          // The same revision twice without its file: not a race with an update, a loss.
          if (missing === found.revision) throw await damaged(found, "its file is missing");
          try {
            return { row: found, handle: await open(files.path(blobId, found.revision), "r") };
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code !== "ENOENT" || attempt >= UPDATE_RACE_ATTEMPTS) throw err;
            missing = found.revision;
          }
        }
      });
      const size = (await handle.stat()).size;
      if (size !== row.size_bytes) {
        await handle.close();
        throw await damaged(row, `${size} of its ${row.size_bytes} bytes`);
      }
      const etag = `"${row.sha256}"`;
      reply.headers({
        "content-type": row.content_type,
        etag,
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
        // A part cannot be checked alone: the whole file is, once per change of the file.
        await verifyFile(files.path(blobId, row.revision), row).catch(async (err: unknown) => {
          await handle.close();
          if (err instanceof BlobDamagedError) await damage.record(err);
          throw err;
        });
        reply.code(206).header("content-range", `bytes ${range.start}-${range.end}/${row.size_bytes}`);
        reply.header("content-length", range.end - range.start + 1);
        return reply.send(
          handle.createReadStream({ start: range.start, end: range.end, highWaterMark: READ_CHUNK_BYTES }),
        );
      }
      reply.header("content-length", row.size_bytes);
      // Checked as it streams: on a mismatch the stream fails before its last byte, and
      // the connection is cut (a client never gets a complete-looking damaged copy).
      const body = verifyingStream(row, (err) => {
        request.log.error({ blobId, reason: err.reason }, "a blob's file is damaged; its download was cut");
        damage.record(err).catch((recordErr: unknown) => {
          request.log.warn({ err: recordErr, blobId }, "recording a damaged blob failed");
        });
      });
      pipeline(handle.createReadStream({ highWaterMark: READ_CHUNK_BYTES }), body, () => {});
      return reply.send(body);
    },
  );

  api.delete(
    `${base}/:blobId/delete`,
    { schema: { params: blobParams }, config: { scope: ENDPOINT_SCOPES.blobDelete } },
    async (request) => {
      const { modelId, blobId } = request.params;
      assertOwnModel(request, modelId, "path modelId");
      return blobLocks.run(blobId, async (): Promise<BlobDeleted> => {
        const row = await blobs.get(modelId, blobId);
        if (!row) throw notFound("blob", blobId);
        await blobs.delete(row);
        await files.remove(files.path(blobId, row.revision));
        return { id: blobId, deleted: true };
      });
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
