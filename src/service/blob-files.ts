import { createHash, randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, open, readdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

export interface WrittenFile {
  path: string;
  sizeBytes: number;
  sha256: string;
  /** The first bytes, to recognise the encryption envelope. */
  head: Buffer;
}

const HEAD_BYTES = 64;

/**
 * Blob bytes on disk. A blob's bytes live in `blobs/<id>.<revision>`, a new revision
 * per update, so the file the committed metadata points to is never overwritten.
 * New bytes go to `tmp/`, are fsynced, then renamed into place before the metadata
 * commit; whatever a crash leaves behind is removed by `removeOrphans` at startup.
 */
export class BlobFiles {
  readonly blobDir: string;
  readonly tmpDir: string;

  constructor(dataDir: string) {
    this.blobDir = join(dataDir, "blobs");
    this.tmpDir = join(dataDir, "tmp");
  }

  async init(): Promise<void> {
    await mkdir(this.blobDir, { recursive: true });
    await mkdir(this.tmpDir, { recursive: true });
  }

  path(id: string, revision: number): string {
    return join(this.blobDir, `${id}.${revision}`);
  }

  tempPath(): string {
    return join(this.tmpDir, `${randomUUID()}.part`);
  }

  /** Streams `source` into a new temp file, hashing as it goes, and fsyncs it. */
  async writeTemp(source: Readable | AsyncIterable<Uint8Array>): Promise<WrittenFile> {
    return writeFileDurably(this.tempPath(), source);
  }

  /** Moves a fsynced temp file to its final name and makes the rename durable. */
  async place(tempPath: string, id: string, revision: number): Promise<string> {
    const target = this.path(id, revision);
    await rename(tempPath, target);
    await fsyncDir(this.blobDir);
    return target;
  }

  async remove(path: string): Promise<void> {
    await rm(path, { force: true });
  }

  /**
   * Deletes temp files and blob files no metadata row points to: the leftovers of a
   * crash between writing bytes and committing (or after committing, before the old
   * revision was deleted).
   */
  async removeOrphans(referenced: ReadonlySet<string>): Promise<string[]> {
    const removed: string[] = [];
    for (const name of await readdir(this.tmpDir)) {
      await rm(join(this.tmpDir, name), { force: true, recursive: true });
      removed.push(join("tmp", name));
    }
    for (const name of await readdir(this.blobDir)) {
      if (!referenced.has(name)) {
        await rm(join(this.blobDir, name), { force: true, recursive: true });
        removed.push(join("blobs", name));
      }
    }
    return removed;
  }
}

/**
 * Streams `source` into a new file at `path` (which must not exist), hashing on the
 * way, and fsyncs it before resolving. On failure the partial file is removed.
 */
export async function writeFileDurably(
  path: string,
  source: Readable | AsyncIterable<Uint8Array>,
): Promise<WrittenFile> {
  const hash = createHash("sha256");
  let sizeBytes = 0;
  const headChunks: Buffer[] = [];
  let headLength = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      sizeBytes += chunk.length;
      if (headLength < HEAD_BYTES) {
        const take = chunk.subarray(0, HEAD_BYTES - headLength);
        headChunks.push(Buffer.from(take));
        headLength += take.length;
      }
      done(null, chunk);
    },
  });
  try {
    await pipeline(source, meter, createWriteStream(path, { flags: "wx", flush: true }));
  } catch (err) {
    await rm(path, { force: true });
    throw err;
  }
  return { path, sizeBytes, sha256: hash.digest("hex"), head: Buffer.concat(headChunks) };
}

export function blobFileName(id: string, revision: number): string {
  return `${id}.${revision}`;
}

async function fsyncDir(dir: string): Promise<void> {
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
