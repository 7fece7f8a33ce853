import { createHash, randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { chmod, link, mkdir, open, readdir, rm, stat } from "node:fs/promises";
import { once } from "node:events";
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
 * New bytes go to `tmp/<owner>/` (a folder per service process, so processes sharing
 * the data dir never sweep each other's work), are fsynced, then renamed into place
 * before the metadata commit; whatever a crash leaves behind is removed by
 * `removeOrphans` at startup.
 */
export class BlobFiles {
  readonly blobDir: string;
  readonly tmpRoot: string;
  /** This process's temp folder. */
  readonly tmpDir: string;

  constructor(dataDir: string, ownerId: string) {
    this.blobDir = join(dataDir, "blobs");
    this.tmpRoot = join(dataDir, "tmp");
    this.tmpDir = join(this.tmpRoot, ownerId);
  }

  async init(): Promise<void> {
    await mkdir(this.blobDir, { recursive: true, mode: 0o700 });
    await this.ensureTemp();
  }

  /**
   * Makes sure this process's temp folder exists: called before each use, so a folder
   * removed behind this process's back (by hand, or by an older version that took a
   * frozen process for dead) costs nothing but its re-creation.
   */
  async ensureTemp(): Promise<void> {
    await mkdir(this.tmpDir, { recursive: true, mode: 0o700 });
  }

  /** Where a blob's revision lives; throws UnsafeBlobIdError for an id that is not a UUID. */
  path(id: string, revision: number): string {
    return join(this.blobDir, blobFileName(id, revision));
  }

  tempPath(): string {
    return join(this.tmpDir, `${randomUUID()}.part`);
  }

  /**
   * `count` temp paths for a job attempt's outputs, in a folder of their own inside this
   * process's temp folder. A worker thread terminated mid-write (a timeout, a cancel) can
   * still have a file open queued in libuv's pool, which may create the file after the
   * thread is gone: removing the folder takes such a file with it, or makes that late
   * open fail, where removing the paths alone would leave it behind.
   */
  async attemptTemps(count: number): Promise<{ paths: string[]; remove: () => Promise<void> }> {
    const dir = join(this.tmpDir, randomUUID());
    await mkdir(dir, { recursive: true, mode: 0o700 });
    return {
      paths: Array.from({ length: count }, () => join(dir, `${randomUUID()}.part`)),
      remove: () => rm(dir, { recursive: true, force: true, maxRetries: 3 }),
    };
  }

  /** Streams `source` into a new temp file, hashing as it goes, and fsyncs it. */
  async writeTemp(source: Readable | AsyncIterable<Uint8Array>): Promise<WrittenFile> {
    await this.ensureTemp();
    return writeFileDurably(this.tempPath(), source);
  }

  /**
   * Links a fsynced temp file under its final name and makes the link durable. A link,
   * not a rename: it fails (EEXIST) instead of replacing a file another process placed
   * under the same name (two updates of one blob at once). The temp name stays until
   * the caller has committed the row (or given up) and removes it: while it exists the
   * placed file has a second link, which is how `removeOrphans` tells a file a live
   * process is about to commit from one a dead process left.
   */
  async place(tempPath: string, id: string, revision: number): Promise<string> {
    const target = this.path(id, revision);
    // Private whoever wrote it (a job's worker writes with the process's umask).
    await chmod(tempPath, 0o600);
    await link(tempPath, target);
    await fsyncDir(this.blobDir);
    return target;
  }

  /**
   * One more link to a placed file, in this process's temp folder: while it exists the
   * file has two links, so no orphan sweep removes it (see removeOrphans). For a file
   * whose commit has an unknown outcome, kept until the database can be asked.
   */
  async hold(placed: string): Promise<string> {
    await this.ensureTemp();
    const path = join(this.tmpDir, `${randomUUID()}.hold`);
    await link(placed, path);
    return path;
  }

  async remove(path: string): Promise<void> {
    await rm(path, { force: true });
  }

  /**
   * Deletes the leftovers of crashes: the temp folders of dead processes (by their
   * lock: a frozen process is alive, however long), loose files in tmp/ older than
   * `staleFileMs`, and blob files that no row points to and no live process is about
   * to commit (a placed file keeps its temp link in its process's folder until the
   * commit, see `place`; once the dead processes' folders are gone, a file with one
   * link and no row is left over for good). `isReferenced` is asked after the file's
   * link count was read: a process that commits and then drops its temp link has
   * committed by then.
   */
  async removeOrphans(scope: {
    isReferenced: (fileName: string) => Promise<boolean>;
    isAlive: (ownerId: string) => Promise<boolean>;
    /** No other process lives (by lock or heartbeat): a loose file in tmp/ (an older version's) is nobody's. */
    alone: boolean;
    now: number;
    staleFileMs: number;
  }): Promise<string[]> {
    const removed: string[] = [];
    const gone = (err: unknown) => (err as NodeJS.ErrnoException).code === "ENOENT";
    for (const entry of await readdir(this.tmpRoot, { withFileTypes: true })) {
      const path = join(this.tmpRoot, entry.name);
      const dead = entry.isDirectory()
        ? !(await scope.isAlive(entry.name))
        : scope.alone || (await stat(path).then((s) => s.mtimeMs < scope.now - scope.staleFileMs, gone));
      if (dead) {
        await rm(path, { force: true, recursive: true });
        removed.push(join("tmp", entry.name));
      }
    }
    for (const name of await readdir(this.blobDir)) {
      const path = join(this.blobDir, name);
      const links = await stat(path).then(
        (s) => s.nlink,
        () => 0,
      );
      if (links === 1 && !(await scope.isReferenced(name))) {
        await rm(path, { force: true, recursive: true });
        removed.push(join("blobs", name));
      }
    }
    return removed;
  }

  /** Removes this process's temp folder (at a clean stop). */
  async removeOwnTemp(): Promise<void> {
    await rm(this.tmpDir, { force: true, recursive: true });
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
  const sink = createWriteStream(path, { flags: "wx", flush: true, mode: 0o600 });
  try {
    await pipeline(source, meter, sink);
  } catch (err) {
    // The file is opened asynchronously: when the source fails at once (a body that
    // ended inside the part), the open can complete after the pipeline rejects, and
    // removing the path before then would leave an empty file behind.
    if (!sink.closed) await once(sink, "close").catch(() => {});
    await rm(path, { force: true });
    throw err;
  }
  return { path, sizeBytes, sha256: hash.digest("hex"), head: Buffer.concat(headChunks) };
}

/** A blob id as this service makes them (randomUUID): the only form that may become a file name. */
const BLOB_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A blob id or revision that is not what this service writes: refused before it names a file. */
export class UnsafeBlobIdError extends Error {
  override readonly name = "UnsafeBlobIdError";
  constructor(id: string, revision: number) {
    // JSON-quoted and cut short: the value came from a database that may have been tampered with.
    super(
      `a blob record names the id ${JSON.stringify(id.slice(0, 80))} and revision ${JSON.stringify(revision)}, which are not a lower-case UUID and a positive integer: refusing to make them a file name (the database may have been altered by hand or tampered with)`,
    );
  }
}

export function isSafeBlobFile(id: string, revision: number): boolean {
  return BLOB_ID.test(id) && Number.isSafeInteger(revision) && revision >= 1;
}

/** The file name of a blob's revision, `<id>.<revision>`; throws UnsafeBlobIdError for anything else. */
export function blobFileName(id: string, revision: number): string {
  if (!isSafeBlobFile(id, revision)) throw new UnsafeBlobIdError(id, revision);
  return `${id}.${revision}`;
}

/** The id and revision a blob file's name holds, or undefined for a name no blob has. */
export function parseBlobFileName(fileName: string): { id: string; revision: number } | undefined {
  const match = /^(.+)\.(\d+)$/.exec(fileName);
  if (!match) return undefined;
  const id = match[1]!;
  const revision = Number(match[2]);
  return isSafeBlobFile(id, revision) ? { id, revision } : undefined;
}

async function fsyncDir(dir: string): Promise<void> {
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
