import { randomBytes } from "node:crypto";
import { mkdirSync, statSync } from "node:fs";
import { hostname } from "node:os";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { checkStoreMarker } from "../../blob-dir-marker.js";
import { BlobFiles } from "../../blob-bytes/blob-files.js";
import { UnsettledCommits } from "../../commit-outcome.js";
import { KeyedLock } from "../../blob-bytes/keyed-lock.js";
import type { ResolvedOptions } from "../../options.js";
import { describeStore, storeLogFields } from "../../store/choice.js";
import type { Stores } from "../../store/port.js";
import { openChosenStores } from "../../store/open.js";
import type { ProcessIdentity } from "../../domain/processes.js";

/** The store's records, and what this process adds beside them: the blob files and their locks. */
export interface Store extends Stores {
  files: BlobFiles;
  blobLocks: KeyedLock;
  /** Commits whose outcome is unknown (the database connection broke): their files kept until it answers. */
  unsettled: UnsettledCommits;
  /** This service process, as the other processes on the store see it. */
  me: ProcessIdentity;
}

declare module "fastify" {
  interface FastifyInstance {
    store: Store;
    serviceOptions: ResolvedOptions;
  }
}

/** Dead processes' rows, and loose files no live process may still commit, are this old at least. */
const STALE_FILE_MS = 60 * 60 * 1000;

function newIdentity(): ProcessIdentity {
  const host = hostname();
  return {
    // Unique per start (a pid is reused), and safe as a folder name.
    ownerId: `${host.replace(/[^\w.-]/g, "_")}-${process.pid}-${randomBytes(4).toString("hex")}`,
    hostname: host,
    processId: process.pid,
  };
}

/**
 * Opens the data dir: SQLite (migrated) and the blob folders; registers this process
 * with a heartbeat, so the others sharing the data dir know it is alive; then removes
 * what a crash may have left (dead processes' temp folders, blob files no row points to).
 */
export const storePlugin = fp(
  async (app: FastifyInstance, options: { service: ResolvedOptions }) => {
    const { dataDir, region, jobLeaseMs, store } = options.service;
    // Made as the SQLite store makes it (private): with PostgreSQL it holds the blob files only.
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const stores = await openChosenStores({ choice: store, dataDir, region });
    const { processes, blobs, tokens } = stores;
    app.log.info({ dataDir, store: describeStore(store), ...storeLogFields(store) }, "store opened");
    warnIfShared(dataDir, app.log);
    if (stores.storeId) {
      const { id, created } = await stores.storeId();
      await checkStoreMarker({ dataDir, storeId: id, firstStart: created, store: describeStore(store) }).catch(
        async (err: unknown) => {
          await stores.close();
          throw err;
        },
      );
    }
    const me = newIdentity();
    await processes.register(me, Date.now());
    const heartbeat = setInterval(
      () => {
        processes.heartbeat(me.ownerId, Date.now()).catch((err: unknown) => {
          // The database was busy past its timeout: the next beat tries again.
          app.log.warn({ err }, "heartbeat failed");
        });
      },
      Math.max(50, jobLeaseMs / 3),
    );
    heartbeat.unref();
    const files = new BlobFiles(dataDir, me.ownerId);
    await files.init();
    const now = Date.now();
    await processes.forgetDead(now, STALE_FILE_MS);
    const removed = await files.removeOrphans({
      isReferenced: (name) => blobs.isReferenced(name),
      // By the lock alone: a live replica paused past its heartbeat, or one whose clock
      // disagrees with ours, is still about to use its temp folder.
      isAlive: (ownerId) => processes.livesByLock(ownerId, now, jobLeaseMs),
      alone: (await processes.alive(now, jobLeaseMs)).size === 1,
      now,
      staleFileMs: STALE_FILE_MS,
    });
    if (removed.length > 0)
      app.log.info({ removed: removed.length }, "removed orphan files left by an interrupted write");
    await tokens.purgeExpired();
    app.decorate("serviceOptions", options.service);
    const unsettled = new UnsettledCommits(files, app.log);
    app.decorate("store", {
      ...stores,
      files,
      blobLocks: new KeyedLock(),
      unsettled,
      me,
    });
    app.addHook("onClose", async () => {
      clearInterval(heartbeat);
      await unsettled.close();
      await files.removeOwnTemp().catch((err: unknown) => app.log.warn({ err }, "removing the temp folder failed"));
      await processes.unregister(me.ownerId);
      await stores.close();
    });
  },
  { name: "mdps-store", fastify: "5.x" },
);

/**
 * One warning when the data dir is readable by others than its owner (made by an older
 * version, or by hand): it holds datasets, outputs and secret hashes. A new one is 0700.
 */
function warnIfShared(dataDir: string, log: FastifyInstance["log"]): void {
  const mode = statSync(dataDir).mode & 0o777;
  if ((mode & 0o077) !== 0)
    log.warn(
      `the data dir ${dataDir} can be read by other local users (mode ${mode.toString(8)}); make it private with: chmod 700 '${dataDir}'`,
    );
}
