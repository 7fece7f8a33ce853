/**
 * Checksums on read: a blob's bytes are checked against the sha256 and size its row
 * holds whenever the service hands them out, so a file damaged behind the service's
 * back (truncated, a changed byte, deleted) is never served or used as if whole.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { Transform, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import { HttpProblem } from "../http/problems.js";

export interface ExpectedBytes {
  id: string;
  revision: number;
  size_bytes: number;
  sha256: string;
}

/** A blob's file is not the bytes its row describes. */
export class BlobDamagedError extends Error {
  override readonly name = "BlobDamagedError";
  constructor(
    readonly blobId: string,
    readonly revision: number,
    readonly reason: string,
  ) {
    super(`blob ${blobId} is damaged: ${reason}`);
  }
}

/** The answer to a request that met a damaged blob: it names the blob and what to do. */
export function blobDamagedProblem(err: BlobDamagedError): HttpProblem {
  return new HttpProblem(
    500,
    `The stored bytes of blob ${err.blobId} are damaged (${err.reason}); nothing of it was served. Upload the dataset again (a new blob or an update of this one); the operator can list every damaged blob with mdps admin verify.`,
    { title: "Blob damaged", body: { code: "blob_damaged", blob_id: err.blobId } },
  );
}

/**
 * A pass-through that hashes and counts what flows, and holds the last chunk back
 * until the end: only when size and sha256 match does the last byte go out, so a
 * reader of a damaged file never receives a complete-looking copy.
 */
export function verifyingStream(expected: ExpectedBytes, onDamage: (err: BlobDamagedError) => void): Transform {
  const hash = createHash("sha256");
  let size = 0;
  let held: Buffer | undefined;
  return new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      hash.update(chunk);
      size += chunk.length;
      const previous = held;
      held = chunk;
      if (size > expected.size_bytes) {
        done(damage(`more than its ${expected.size_bytes} bytes`));
        return;
      }
      done(null, previous);
    },
    flush(done: TransformCallback) {
      if (size !== expected.size_bytes) {
        done(damage(`${size} of its ${expected.size_bytes} bytes`));
        return;
      }
      if (hash.digest("hex") !== expected.sha256) {
        done(damage("its sha256 differs from the stored one"));
        return;
      }
      done(null, held);
    },
  });
  function damage(reason: string): BlobDamagedError {
    const err = new BlobDamagedError(expected.id, expected.revision, reason);
    onDamage(err);
    return err;
  }
}

/** Files already checked whole, by identity (a write changes mtime or ctime): reads of an unchanged file hash it once. */
const checked = new Map<string, string>();
const CHECKED_MAX = 4096;

/**
 * Checks a whole file against its row (size, then sha256); throws BlobDamagedError
 * (ENOENT included: a missing file is damage too).
 */
export async function verifyFile(path: string, expected: ExpectedBytes): Promise<void> {
  const info = await stat(path).catch((err: unknown) => {
    if ((err as NodeJS.ErrnoException).code === "ENOENT")
      throw new BlobDamagedError(expected.id, expected.revision, "its file is missing");
    throw err;
  });
  if (info.size !== expected.size_bytes)
    throw new BlobDamagedError(expected.id, expected.revision, `${info.size} of its ${expected.size_bytes} bytes`);
  const identity = `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`;
  if (checked.get(identity) === expected.sha256) return;
  const hash = createHash("sha256");
  await pipeline(createReadStream(path, { highWaterMark: 1 << 20 }), async function (source: AsyncIterable<Buffer>) {
    for await (const chunk of source) hash.update(chunk);
  });
  if (hash.digest("hex") !== expected.sha256)
    throw new BlobDamagedError(expected.id, expected.revision, "its sha256 differs from the stored one");
  if (checked.size >= CHECKED_MAX) checked.clear();
  checked.set(identity, expected.sha256);
}
