import { link } from "node:fs/promises";
import type { Store } from "../plugins/store.js";
import type { BlobRow } from "../store/blobs.js";

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
    for (let attempt = 1; ; attempt++) {
      const blob = blobs.get(modelId, blobId);
      if (!blob) return undefined;
      const path = files.tempPath();
      try {
        await link(files.path(blob.id, blob.revision), path);
        return { blob, path };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "ENOENT" || attempt >= 5) throw err;
      }
    }
  });
}
