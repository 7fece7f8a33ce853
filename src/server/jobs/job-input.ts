import { link } from "node:fs/promises";
import { BlobDamagedError, verifyFile } from "../blob-bytes/blob-check.js";
import type { Store } from "../http/plugins/store.js";
import type { BlobRow } from "../domain/blobs.js";

export interface PinnedInput {
  blob: BlobRow;
  /** A hard link to the blob's bytes, private to this run; the caller removes it. */
  path: string;
}

/**
 * Pins the input's current revision with a hard link: an update or delete meanwhile
 * removes only its own name for the bytes, never what the run reads. Undefined when
 * the blob is gone.
 */
export async function pinInput(store: Store, modelId: string, blobId: string): Promise<PinnedInput | undefined> {
  const { blobs, blobLocks, files } = store;
  return blobLocks.run(blobId, async () => {
    // The lock keeps this process's updates out; another process's update may delete
    // the revision just read, and then the next read finds the new one.
    let missing: number | undefined;
    for (let attempt = 1; ; attempt++) {
      const blob = await blobs.get(modelId, blobId);
      if (!blob) return undefined;
      // The same revision twice without its file: not a race with an update, a loss.
      if (missing === blob.revision) throw new BlobDamagedError(blob.id, blob.revision, "its file is missing");
      const path = files.tempPath();
      try {
        await link(files.path(blob.id, blob.revision), path);
        return { blob, path };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "ENOENT" || attempt >= 5) throw err;
        missing = blob.revision;
      }
    }
  });
}

/**
 * The input pinned and checked whole against its row (size and sha256) before the
 * worker reads it, so a damaged input is never used: the BlobDamagedError (recorded for
 * health) instead. Undefined when the blob is gone.
 */
export async function pinCheckedInput(
  store: Store,
  modelId: string,
  blobId: string,
): Promise<PinnedInput | BlobDamagedError | undefined> {
  let input: PinnedInput | undefined;
  try {
    input = await pinInput(store, modelId, blobId);
    if (input) await verifyFile(input.path, input.blob);
    return input;
  } catch (err) {
    if (input) await store.files.remove(input.path);
    if (!(err instanceof BlobDamagedError)) throw err;
    await store.damage.record(err);
    return err;
  }
}
