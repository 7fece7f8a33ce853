/**
 * Writing blobs: an upload, an update (If-Match, racing other processes for the next
 * revision) and a delete, each a row and a file kept in step. The routes parse and answer;
 * a commit that threw is settled by ./commit-settling.ts.
 */
import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import { isEncryptedEnvelope } from "../../core/crypto/index.js";
import { contentTypeOf } from "../blob-bytes/blob-content-type.js";
import { nowIso } from "../domain/clock.js";
import { etagMatches } from "../domain/etags.js";
import type { BlobDeleted, BlobRecord } from "../../core/contract/index.js";
import { blobContent, toBlobRecord, type BlobContent, type BlobRow } from "../domain/blobs.js";
import { metadataOfForm } from "../../core/contract/blob-fields.js";
import type { Store } from "../http/plugins/store.js";
import { HttpProblem, notFound } from "../http/problems.js";
import type { BlobForm } from "../http/routes/blob-form.js";
import { settleBlobCommit, tidyFiles } from "./commit-settling.js";

/** How often an update retries after losing a race with another process. */
export const UPDATE_RACE_ATTEMPTS = 10;

export function contentOf(form: BlobForm): BlobContent {
  const encrypted = isEncryptedEnvelope(form.file.head);
  const metadata = metadataOfForm(form.fields);
  return blobContent({
    metadata,
    encrypted,
    contentType: contentTypeOf(metadata.record_type, encrypted),
    file: form.file,
  });
}

export const preconditionFailed = (row: BlobRow) =>
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

/** Where a blob's routes are, as the 503 of an unknown commit tells the client to look. */
interface BlobAddress {
  store: Store;
  modelId: string;
  /** The model's blob path, `/api/model/<modelId>/shared/blob`. */
  blobsPath: string;
  /** Where what cannot be tidied after an answered change is told. */
  log: FastifyBaseLogger;
}

/** Stores an uploaded blob as revision 1 of a new id; its temp file is removed either way. */
export async function uploadBlob(options: BlobAddress & { form: BlobForm }): Promise<BlobRecord> {
  const { store, modelId, form, blobsPath, log } = options;
  const { blobs, files } = store;
  const id = randomUUID();
  let placed: string | undefined;
  try {
    placed = await files.place(form.file.path, id, 1);
    const row = await blobs.insert(id, modelId, 1, contentOf(form), nowIso());
    return toBlobRecord(row);
  } catch (err) {
    if (!placed) throw err;
    const row = await settleBlobCommit({
      store,
      err,
      placed,
      reread: () => blobs.get(modelId, id),
      log,
      howToCheck: `If it was, it is blob ${id} (GET ${blobsPath}/${id}/download answers 200 with ETag "${form.file.sha256}"); if that answers 404, send the upload again.`,
      what: `upload of blob ${id}`,
    });
    return toBlobRecord(row);
  } finally {
    // After the commit: until then the temp link marks the placed file as this process's.
    await tidyFiles({ store, paths: [form.file.path], log });
  }
}

/**
 * Replaces a blob's content with the next revision, if it still matches `ifMatch`. The
 * body is read (`readForm`) only once the blob is known to exist and match, so a 404 or
 * 412 answers before the upload is sent on.
 */
export async function updateBlob(
  options: BlobAddress & { blobId: string; ifMatch: string | undefined; readForm: () => Promise<BlobForm> },
): Promise<BlobRecord> {
  const { store, modelId, blobId, ifMatch, log } = options;
  const { blobs, files, blobLocks } = store;
  const before = await blobs.get(modelId, blobId);
  if (!before) throw notFound("blob", blobId);
  if (ifMatch && !etagMatches(ifMatch, before.sha256)) throw preconditionFailed(before);
  const form = await options.readForm();
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
            store,
            err,
            placed,
            // Only this update can have made revision `next`: it holds that revision's file name.
            reread: async () => {
              const row = await blobs.get(modelId, blobId);
              return row && row.revision >= next ? row : undefined;
            },
            whenCommitted: [files.path(blobId, current.revision)],
            log,
            howToCheck: `If it was, the blob's ETag is now "${content.sha256}" (read it with GET ${options.blobsPath}/${blobId}/download); if it is still "${current.sha256}", send the update again.`,
            what: `update of blob ${blobId} to revision ${next}`,
          });
        } finally {
          await tidyFiles({ store, paths: [form.file.path], log });
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
      await tidyFiles({ store, paths: [form.file.path, files.path(blobId, current.revision)], log });
      return toBlobRecord(updated);
    }
  });
}

/** Deletes a blob's row, then its file. */
export function deleteBlob(options: { store: Store; modelId: string; blobId: string }): Promise<BlobDeleted> {
  const { store, modelId, blobId } = options;
  return store.blobLocks.run(blobId, async (): Promise<BlobDeleted> => {
    const row = await store.blobs.get(modelId, blobId);
    if (!row) throw notFound("blob", blobId);
    await store.blobs.delete(row);
    await store.files.remove(store.files.path(blobId, row.revision));
    return { id: blobId, deleted: true };
  });
}
