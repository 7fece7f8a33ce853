import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { BlobFiles } from "../blob-files.js";
import { KeyedLock } from "../keyed-lock.js";
import type { ResolvedOptions } from "../options.js";
import { AppStore } from "../store/apps.js";
import { BlobStore } from "../store/blobs.js";
import { openDatabase, type Db } from "../store/database.js";
import { JobStore } from "../store/jobs.js";
import { TokenStore } from "../store/tokens.js";

export interface Store {
  db: Db;
  apps: AppStore;
  tokens: TokenStore;
  blobs: BlobStore;
  jobs: JobStore;
  files: BlobFiles;
  blobLocks: KeyedLock;
}

declare module "fastify" {
  interface FastifyInstance {
    store: Store;
    serviceOptions: ResolvedOptions;
  }
}

/**
 * Opens the data dir: SQLite (migrated) and the blob folders, then removes what a
 * crash may have left (temp files, blob files no row points to).
 */
export const storePlugin = fp(
  async (app: FastifyInstance, options: { service: ResolvedOptions }) => {
    const db = openDatabase(options.service.dataDir);
    const files = new BlobFiles(options.service.dataDir);
    await files.init();
    const blobs = new BlobStore(db);
    const removed = await files.removeOrphans(blobs.referencedFiles());
    if (removed.length > 0)
      app.log.info({ removed: removed.length }, "removed orphan files left by an interrupted write");
    const tokens = new TokenStore(db, options.service.region);
    tokens.purgeExpired();
    app.decorate("serviceOptions", options.service);
    app.decorate("store", {
      db,
      apps: new AppStore(db),
      tokens,
      blobs,
      jobs: new JobStore(db),
      files,
      blobLocks: new KeyedLock(),
    });
    app.addHook("onClose", async () => {
      db.close();
    });
  },
  { name: "mdps-store", fastify: "5.x" },
);
