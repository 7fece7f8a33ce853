/**
 * Reading a blob's file for a download: the revision the row names, opened under the
 * blob's lock, and every sign of damage (a missing file, a wrong size, a wrong sha256)
 * remembered, so health names it, before the client is told.
 */
import { open, type FileHandle } from "node:fs/promises";
import { pipeline } from "node:stream";
import type { Readable } from "node:stream";
import type { FastifyBaseLogger } from "fastify";
import { BlobDamagedError, verifyFile, verifyingStream } from "../blob-bytes/blob-check.js";
import type { BlobRow } from "../domain/blobs.js";
import type { Store } from "../http/plugins/store.js";
import { notFound } from "../http/problems.js";
import { UPDATE_RACE_ATTEMPTS } from "./blob-writes.js";

/** Downloads read 1 MiB at a time: about a third faster than the 64 KiB default on loopback. */
const READ_CHUNK_BYTES = 1 << 20;

async function damaged(store: Store, row: BlobRow, reason: string): Promise<BlobDamagedError> {
  const err = new BlobDamagedError(row.id, row.revision, reason);
  await store.damage.record(err);
  return err;
}

/** A blob's row and its file, open; the file's size checked against the row. The caller closes the handle. */
export async function openBlobFile(options: {
  store: Store;
  modelId: string;
  blobId: string;
}): Promise<{ row: BlobRow; handle: FileHandle }> {
  const { store, modelId, blobId } = options;
  // Open under the blob's lock: an update in this process cannot delete this revision
  // between the lookup and the open. One in another process can: then look again.
  const opened = await store.blobLocks.run(blobId, async (): Promise<{ row: BlobRow; handle: FileHandle }> => {
    let missing: number | undefined;
    for (let attempt = 1; ; attempt++) {
      const found = await store.blobs.get(modelId, blobId);
      if (!found) throw notFound("blob", blobId);
      // The same revision twice without its file: not a race with an update, a loss.
      if (missing === found.revision) throw await damaged(store, found, "its file is missing");
      try {
        return { row: found, handle: await open(store.files.path(blobId, found.revision), "r") };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "ENOENT" || attempt >= UPDATE_RACE_ATTEMPTS) throw err;
        missing = found.revision;
      }
    }
  });
  const { row, handle } = opened;
  const size = (await handle.stat()).size;
  if (size !== row.size_bytes) {
    await handle.close();
    throw await damaged(store, row, `${size} of its ${row.size_bytes} bytes`);
  }
  return opened;
}

/** Bytes `start`..`end` of the open file, once the whole file is checked: a part cannot be checked alone. */
export async function verifiedPart(options: {
  store: Store;
  row: BlobRow;
  handle: FileHandle;
  start: number;
  end: number;
}): Promise<Readable> {
  const { store, row, handle } = options;
  await verifyFile(store.files.path(row.id, row.revision), row).catch(async (err: unknown) => {
    await handle.close();
    if (err instanceof BlobDamagedError) await store.damage.record(err);
    throw err;
  });
  return handle.createReadStream({ start: options.start, end: options.end, highWaterMark: READ_CHUNK_BYTES });
}

/**
 * The whole open file, checked as it streams: on a mismatch the stream fails before its
 * last byte (the connection is cut, a client never gets a complete-looking damaged copy)
 * and the damage is remembered.
 */
export function verifiedWhole(options: {
  store: Store;
  row: BlobRow;
  handle: FileHandle;
  log: FastifyBaseLogger;
}): Readable {
  const { store, row, handle, log } = options;
  const body = verifyingStream(row, (err) => {
    log.error({ blobId: row.id, reason: err.reason }, "a blob's file is damaged; its download was cut");
    store.damage.record(err).catch((recordErr: unknown) => {
      log.warn({ err: recordErr, blobId: row.id }, "recording a damaged blob failed");
    });
  });
  pipeline(handle.createReadStream({ highWaterMark: READ_CHUNK_BYTES }), body, () => {});
  return body;
}
