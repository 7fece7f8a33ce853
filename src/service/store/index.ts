/**
 * The store: everything the service keeps about models, applications, tokens, blobs,
 * jobs, processes and portal sessions, asked for and answered in typed records. It is the
 * one module that knows the database is SQLite: nothing outside store/ holds the database
 * handle or writes SQL, so a second store (another database) fills this interface.
 */
import { randomBytes } from "node:crypto";
import { AppStore } from "./apps.js";
import { BlobStore } from "./blobs.js";
import { DamageStore } from "./damage.js";
import { metaValue, openDatabase, writeTransaction } from "./database.js";
import { pruneRows, storeUsage, type PruneQuery, type PruneRows, type StoreUsage } from "./housekeeping.js";
import { JobStore } from "./jobs.js";
import { listBlobs, listJobs } from "./listing.js";
import { PortalStore } from "./portal.js";
import { ProcessRegistry } from "./processes.js";
import type { SqliteDriverName } from "./sqlite.js";
import { TokenStore } from "./tokens.js";

export interface Stores {
  apps: AppStore;
  tokens: TokenStore;
  blobs: BlobStore;
  jobs: JobStore;
  processes: ProcessRegistry;
  portal: PortalStore;
  damage: DamageStore;
  /** Pages of a model's blobs and jobs, newest first. */
  listings: {
    blobs: (modelId: string, query: Parameters<typeof listBlobs>[2]) => ReturnType<typeof listBlobs>;
    jobs: (modelId: string, query: Parameters<typeof listJobs>[2]) => ReturnType<typeof listJobs>;
  };
  /** Counts and bytes of the stored rows, optionally of one tag (`mdps admin usage`). */
  usage(tag?: string): StoreUsage;
  /** Removes rows older than the query's time (`mdps admin prune`); the caller removes their files. */
  prune(query: PruneQuery): PruneRows;
  /**
   * Runs `fn` as one write transaction, durable on return. Store calls inside it join it,
   * so several writes (a job's outputs and its end) commit together or not at all.
   */
  transaction<T>(fn: () => T): T;
  /** Throws when the database does not answer. */
  ping(): void;
  /** This data dir's secret, made once when the store was first created; never leaves the process. */
  instanceSecret(): string;
  close(): void;
}

export interface OpenStoresOptions {
  dataDir: string;
  driver?: SqliteDriverName | undefined;
  /** The region tokens are issued and accepted for (the service's own); tools that issue none leave it out. */
  region?: string | undefined;
}

/** Opens (and migrates) the store of a data dir. */
export function openStores(options: OpenStoresOptions): Stores {
  const db = openDatabase(options.dataDir, { driver: options.driver });
  let secret: string | undefined;
  return {
    apps: new AppStore(db),
    tokens: new TokenStore(db, options.region ?? ""),
    blobs: new BlobStore(db),
    jobs: new JobStore(db),
    processes: new ProcessRegistry(db, options.dataDir),
    portal: new PortalStore(db),
    damage: new DamageStore(db),
    listings: {
      blobs: (modelId, query) => listBlobs(db, modelId, query),
      jobs: (modelId, query) => listJobs(db, modelId, query),
    },
    usage: (tag) => storeUsage(db, tag),
    prune: (query) => pruneRows(db, query),
    transaction: (fn) => writeTransaction(db, fn),
    ping: () => {
      db.prepare("SELECT 1").get();
    },
    instanceSecret: () => (secret ??= metaValue(db, "instance_secret", () => randomBytes(32).toString("base64url"))),
    close: () => db.close(),
  };
}
