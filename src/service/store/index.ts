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
import { asyncPort, settle, type Async } from "./async-port.js";
import { metaValue, openDatabase } from "./database.js";
import { endJob, type JobEnding } from "./job-ending.js";
import { pruneRows, storeUsage, type PruneQuery, type PruneRows, type StoreUsage } from "./housekeeping.js";
import { JobStore } from "./jobs.js";
import { listBlobs, listJobs } from "./listing.js";
import { PortalStore } from "./portal.js";
import { ProcessRegistry } from "./processes.js";
import type { SqliteDriverName } from "./sqlite.js";
import { TokenStore } from "./tokens.js";

export interface Stores {
  apps: Async<AppStore>;
  tokens: Async<TokenStore>;
  blobs: Async<BlobStore>;
  jobs: Async<Omit<JobStore, "onChange">>;
  processes: Async<ProcessRegistry>;
  portal: Async<PortalStore>;
  damage: Async<DamageStore>;
  /** Pages of a model's blobs and jobs, newest first. */
  listings: {
    blobs: (modelId: string, query: Parameters<typeof listBlobs>[2]) => Promise<ReturnType<typeof listBlobs>>;
    jobs: (modelId: string, query: Parameters<typeof listJobs>[2]) => Promise<ReturnType<typeof listJobs>>;
  };
  /**
   * Calls `listener` after each change of a job's status, phase or progress made through
   * this store (this process's writes only), synchronously: a listener that reads must defer.
   */
  onJobChange(listener: () => void): void;
  /** A job's terminal state with its outputs and last reports, all or nothing; false when its guard refuses. */
  endJob(ending: JobEnding): Promise<boolean>;
  /** Counts and bytes of the stored rows, optionally of one tag (`mdps admin usage`). */
  usage(tag?: string): Promise<StoreUsage>;
  /** Removes rows older than the query's time (`mdps admin prune`); the caller removes their files. */
  prune(query: PruneQuery): Promise<PruneRows>;
  /** Rejects when the database does not answer. */
  ping(): Promise<void>;
  /** This data dir's secret, made once when the store was first created; never leaves the process. */
  instanceSecret(): Promise<string>;
  /**
   * A store kept outside the data dir (PostgreSQL) has an id, made once, that the data
   * dir's marker must hold (blob-dir-marker.ts); a data dir's own SQLite needs none.
   */
  storeId?: () => Promise<{ id: string; created: boolean }>;
  close(): Promise<void>;
}

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
  listings: {
    blobs: (modelId: string, query: Parameters<typeof listBlobs>[2]) => ReturnType<typeof listBlobs>;
    jobs: (modelId: string, query: Parameters<typeof listJobs>[2]) => ReturnType<typeof listJobs>;
  };
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
    endJob: (ending) => settle(() => sqlite.endJob(ending)),
    usage: (tag) => settle(() => sqlite.usage(tag)),
    prune: (query) => settle(() => sqlite.prune(query)),
    ping: () => settle(() => sqlite.ping()),
    instanceSecret: () => settle(() => sqlite.instanceSecret()),
    close: () => settle(() => sqlite.close()),
  };
}
