/**
 * The store on PostgreSQL: the same members as `Stores` (../port.ts), each method of the
 * same name, parameters and result, answered as a Promise, so that several `mdps serve`
 * replicas can share one database. Records read identically from both stores.
 */
import { randomBytes, randomUUID } from "node:crypto";
import type { PruneQuery, PruneRows, StoreUsage } from "../../domain/housekeeping.js";
import { PgAppStore } from "./apps.js";
import { PgBlobStore } from "./blobs.js";
import { PgChangeFeed } from "./change-feed.js";
import { openPgDb, type PgDb } from "./connection.js";
import { PgDamageStore } from "./damage.js";
import { pgPruneRows, pgStoreUsage } from "./housekeeping.js";
import { PgJobStore } from "./jobs.js";
import { pgListBlobs, pgListJobs } from "./listing.js";
import { migratePg } from "./migrations.js";
import { PgPortalStore } from "./portal.js";
import { PgProcessRegistry } from "./processes.js";
import { PgTokenStore } from "./tokens.js";
import type { Async } from "../async-port.js";
import type { Listings } from "../port.js";

export { PgStorageFault, type PgFaultKind } from "./errors.js";
export { PgAppStore, PgBlobStore, PgDamageStore, PgJobStore, PgPortalStore, PgProcessRegistry, PgTokenStore };

export interface PgStores {
  apps: PgAppStore;
  tokens: PgTokenStore;
  blobs: PgBlobStore;
  jobs: PgJobStore;
  processes: PgProcessRegistry;
  portal: PgPortalStore;
  damage: PgDamageStore;
  /** Pages of a model's blobs and jobs, newest first. */
  listings: Async<Listings>;
  /** Counts and bytes of the stored rows, optionally of one tag (`mdps admin usage`). */
  usage(tag?: string): Promise<StoreUsage>;
  /** Removes rows older than the query's time (`mdps admin prune`); the caller removes their files. */
  prune(query: PruneQuery): Promise<PruneRows>;
  /**
   * Runs `fn` as one transaction, durable on return (synchronous_commit on). Store calls
   * inside it join it, so several writes commit together or not at all. `fn` may run again
   * after losing a race to another replica (serialization failure, deadlock), so it must
   * do nothing but store calls.
   */
  transaction<T>(fn: () => Promise<T>): Promise<T>;
  /** Throws when the database does not answer (a PgStorageFault of kind `unavailable`). */
  ping(): Promise<void>;
  /** This database's secret, made once when the store was first created; never leaves the process. */
  instanceSecret(): Promise<string>;
  /** This database's id, made once by the first replica (`created`): the shared data dir's marker holds it (blob-dir-marker.ts). */
  storeId(): Promise<{ id: string; created: boolean }>;
  /** Ends the pool and the process locks held from here; a second call waits for the first. */
  close(): Promise<void>;
}

export interface OpenPgStoresOptions {
  /** postgres://user:password@host:port/database[?sslmode=require]; never echoed in errors. */
  url: string;
  /** The region tokens are issued and accepted for (the service's own); tools that issue none leave it out. */
  region?: string | undefined;
}

/** Reads a meta value, creating it with `create` the first time (the first replica's value wins). */
async function metaValue(db: PgDb, key: string, create: () => string): Promise<string> {
  await db.run("INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING", [key, create()]);
  return (await db.one<{ value: string }>("SELECT value FROM meta WHERE key = $1", [key]))!.value;
}

/** Opens (and migrates) the store on a PostgreSQL database. */
export async function openPgStores(options: OpenPgStoresOptions): Promise<PgStores> {
  const db = openPgDb(options.url);
  let secret: string;
  try {
    await migratePg(db.pool);
    secret = await metaValue(db, "instance_secret", () => randomBytes(32).toString("base64url"));
  } catch (err) {
    await db.close().catch(() => undefined);
    throw db.fault(err);
  }
  const processes = new PgProcessRegistry(db);
  const jobs = new PgJobStore(db);
  const feed = new PgChangeFeed({
    connect: () => db.dedicatedClient(),
    me: String(db.pool.options.application_name),
    heard: (change) => jobs.heard(change),
  });
  await feed.start();
  let closing: Promise<void> | undefined;
  return {
    apps: new PgAppStore(db),
    tokens: new PgTokenStore(db, options.region ?? ""),
    blobs: new PgBlobStore(db),
    jobs,
    processes,
    portal: new PgPortalStore(db),
    damage: new PgDamageStore(db),
    listings: {
      blobs: (modelId, query) => pgListBlobs(db, modelId, query),
      jobs: (modelId, query) => pgListJobs(db, modelId, query),
    },
    usage: (tag) => pgStoreUsage(db, tag),
    prune: (query) => pgPruneRows(db, query),
    transaction: (fn) => db.transaction(fn),
    ping: async () => {
      await db.one("SELECT 1");
    },
    instanceSecret: () => Promise.resolve(secret),
    storeId: async () => {
      const made = await db.one<{ value: string }>(
        "INSERT INTO meta (key, value) VALUES ('store_id', $1) ON CONFLICT (key) DO NOTHING RETURNING value",
        [randomUUID()],
      );
      if (made) return { id: made.value, created: true };
      return {
        id: (await db.one<{ value: string }>("SELECT value FROM meta WHERE key = 'store_id'"))!.value,
        created: false,
      };
    },
    // Once, however often it is called: a pool refuses a second end.
    close: () =>
      (closing ??= (async () => {
        await feed.close();
        await processes.releaseAll();
        await db.close();
      })()),
  };
}
