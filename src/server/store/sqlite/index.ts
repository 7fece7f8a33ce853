/**
 * The SQLite adapter of the store port (../port.ts): a data dir's database, its record
 * stores answering synchronously, presented to the service through `asyncPort`.
 */
import { randomBytes } from "node:crypto";
import { AppStore } from "./apps.js";
import { BlobStore } from "./blobs.js";
import { DamageStore } from "./damage.js";
import { asyncPort, settle } from "../async-port.js";
import type { Listings, Stores } from "../port.js";
import { metaValue, openDatabase } from "./database.js";
import { endJob } from "./job-ending.js";
import { type JobEnding } from "../../domain/job-ending.js";
import { pruneRows, storeUsage } from "./housekeeping.js";
import { type PruneQuery, type PruneRows, type StoreUsage } from "../../domain/housekeeping.js";
import { JobStore } from "./jobs.js";
import { listBlobs, listJobs } from "./listing.js";
import { PortalStore } from "./portal.js";
import { ProcessRegistry } from "./processes.js";
import type { SqliteDriverName } from "./sqlite.js";
import { TokenStore } from "./tokens.js";

export interface OpenStoresOptions {
  dataDir: string;
  driver?: SqliteDriverName | undefined;
  /** The region tokens are issued and accepted for (the service's own); tools that issue none leave it out. */
  region?: string | undefined;
}

/**
 * The SQLite store's records as they are, answering synchronously: what the data-dir
 * tools (`openAdmin`) use; the service uses them through the asynchronous `Stores`.
 */
export interface SqliteStores {
  apps: AppStore;
  tokens: TokenStore;
  blobs: BlobStore;
  jobs: JobStore;
  processes: ProcessRegistry;
  portal: PortalStore;
  damage: DamageStore;
  listings: Listings;
  endJob(ending: JobEnding): boolean;
  usage(tag?: string): StoreUsage;
  prune(query: PruneQuery): PruneRows;
  ping(): void;
  instanceSecret(): string;
  close(): void;
}

/** Opens (and migrates) the SQLite store of a data dir, synchronous. */
export function openSqliteStores(options: OpenStoresOptions): SqliteStores {
  const db = openDatabase(options.dataDir, { driver: options.driver });
  const jobs = new JobStore(db);
  const blobs = new BlobStore(db);
  const secret = metaValue(db, "instance_secret", () => randomBytes(32).toString("base64url"));
  return {
    apps: new AppStore(db),
    tokens: new TokenStore(db, options.region ?? ""),
    blobs,
    jobs,
    processes: new ProcessRegistry(db, options.dataDir),
    portal: new PortalStore(db),
    damage: new DamageStore(db),
    listings: {
      blobs: (modelId, query) => listBlobs(db, modelId, query),
      jobs: (modelId, query) => listJobs(db, modelId, query),
    },
    endJob: (ending) => endJob(db, { jobs, blobs }, ending),
    usage: (tag) => storeUsage(db, tag),
    prune: (query) => pruneRows(db, query),
    ping: () => {
      db.prepare("SELECT 1").get();
    },
    instanceSecret: () => secret,
    close: () => db.close(),
  };
}

/** Opens (and migrates) the store of a data dir. */
export function openStores(options: OpenStoresOptions): Stores {
  const sqlite = openSqliteStores(options);
  // Each call runs whole and at once (see asyncPort): SQLite's own atomicity, unchanged.
  return {
    apps: asyncPort(sqlite.apps),
    tokens: asyncPort(sqlite.tokens),
    blobs: asyncPort(sqlite.blobs),
    jobs: asyncPort(sqlite.jobs),
    processes: asyncPort(sqlite.processes),
    portal: asyncPort(sqlite.portal),
    damage: asyncPort(sqlite.damage),
    listings: {
      blobs: (modelId, query) => settle(() => sqlite.listings.blobs(modelId, query)),
      jobs: (modelId, query) => settle(() => sqlite.listings.jobs(modelId, query)),
    },
    onJobChange: (listener) => sqlite.jobs.onChange(listener),
    // One process owns a data dir's database: there are no other processes' changes to hear.
    hearsOtherProcesses: false,
    endJob: (ending) => settle(() => sqlite.endJob(ending)),
    usage: (tag) => settle(() => sqlite.usage(tag)),
    prune: (query) => settle(() => sqlite.prune(query)),
    ping: () => settle(() => sqlite.ping()),
    instanceSecret: () => settle(() => sqlite.instanceSecret()),
    close: () => settle(() => sqlite.close()),
  };
}
