/**
 * Which store a data dir's blob files belong to. Replicas of one PostgreSQL database must
 * share one data dir (its blob files): one started on a folder of its own would serve rows
 * whose files are elsewhere, and mark good blobs damaged. The first replica writes the
 * database's id into the data dir; every start compares the two and refuses a mismatch.
 */
import { readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** The marker's file name in the data dir (not in blobs/, which the orphan sweep reads). */
export const STORE_MARKER = "mdps-store-id";

/** How long a start waits for the marker that the store's first replica, starting at the same moment, writes. */
const FIRST_WRITE_WAIT_MS = 3000;

/**
 * Checks (and on the store's first start, writes) the data dir's marker for the store
 * whose id is `storeId`; throws a message saying what to fix on a mismatch.
 * `firstStart`: the store had no id before this start, so no data dir can hold its files yet.
 */
export async function checkStoreMarker(options: {
  dataDir: string;
  storeId: string;
  firstStart: boolean;
  /** The store as messages name it (without its password). */
  store: string;
}): Promise<void> {
  const { dataDir, storeId, store } = options;
  const path = join(dataDir, STORE_MARKER);
  let marked = await readMarker(path);
  // Replicas started together on a new database: the one that made the id writes the marker.
  for (
    const until = Date.now() + FIRST_WRITE_WAIT_MS;
    marked === undefined && !options.firstStart && Date.now() < until;
  ) {
    await new Promise((r) => setTimeout(r, 200));
    marked = await readMarker(path);
  }
  if (marked === storeId) return;
  if (marked !== undefined)
    throw new Error(
      `the data dir ${dataDir} holds the blob files of another store (its ${STORE_MARKER} is ${marked}, ${store} is ${storeId}): every replica of one database must use the same data dir (mount the shared folder as --data-dir), and a data dir serves one database only`,
    );
  if (!options.firstStart)
    throw new Error(
      `the data dir ${dataDir} has no ${STORE_MARKER}, but ${store} is already served from another data dir: start every replica of one database on the same data dir (mount the shared folder as --data-dir; its ${STORE_MARKER} holds ${storeId}). If this folder really is that data dir, from a version without markers, write ${storeId} into ${path} and start again`,
    );
  // Written whole or not at all: a replica starting at the same moment reads a complete id.
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, `${storeId}\n`, { mode: 0o600 });
  await rename(temp, path);
}

function readMarker(path: string): Promise<string | undefined> {
  return readFile(path, "utf8").then(
    (text) => text.trim(),
    (err: unknown) => {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw err;
    },
  );
}
