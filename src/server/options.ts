import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { chooseStore, type StoreChoice } from "./store/choice.js";
import type { SqliteDriverName } from "./store/sqlite/sqlite.js";

/** How long an upload's body may stop arriving before the request is answered 408 (bodyIdleMs). */
export const BODY_IDLE_MS = 30_000;

export interface ServiceOptions {
  /**
   * Where the blob files live, and the SQLite database unless `store` names another;
   * created if missing. Replicas on one PostgreSQL store share one dataDir (a directory
   * every one of them mounts: docs/service.md, "Running replicas").
   */
  dataDir: string;
  /**
   * Where the records are kept: a `postgres://user:password@host:5432/database` URL, for
   * replicas that share the work; or `"sqlite"`, the data dir's own file. Default: the
   * `MDPS_STORE` environment variable, else SQLite.
   */
  store?: string;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: a free port, shown in `RunningService.url`. */
  port?: number;
  /** Region id reported by health; tokens are valid only at their region. Default "local". */
  region?: string;
  /** Access token lifetime. Default 3600. */
  tokenTtlSeconds?: number;
  /** Size limit of one uploaded file. Default 1 GiB. */
  maxBlobBytes?: number;
  /** Worker threads running jobs. Default: cores - 1, at least 1. */
  jobWorkers?: number;
  /**
   * How long a job's lease lasts unless its process renews it (every third of it):
   * when a process dies, another process on the data dir takes its jobs over this long
   * after its last renewal. Default 10 000 ms.
   */
  jobLeaseMs?: number;
  /** How long an upload's body may stop arriving before it is answered 408. Default 30 000 ms. */
  bodyIdleMs?: number;
  /** Log requests with pino (secrets redacted). Default false. */
  logger?: boolean;
  /** Where log lines go when `logger` is on. Default: stderr. */
  logDestination?: { write(line: string): unknown };
  /**
   * Request limits, answered with 429 and Retry-After; `false` turns them all off.
   * Default: 120 token requests per minute per client_id and IP address and 300 per IP
   * address (each runs scrypt), 6000 model API calls per minute per access token.
   */
  rateLimit?: RateLimitOptions | false;
  /**
   * The SQLite driver: `"node-sqlite"` (the runtime's built-in node:sqlite: Node 22.13+,
   * Deno) or `"better-sqlite3"` (the native addon, Node 20). Default: the
   * `MDPS_SQLITE_DRIVER` environment variable, else node-sqlite where the runtime has
   * it, else better-sqlite3. A driver asked for that cannot load is an error.
   */
  sqliteDriver?: SqliteDriverName;
}

export interface RateLimitOptions {
  /** Token requests per window per client_id + IP address; 0 disables. Default 120. */
  tokenPerMinute?: number;
  /**
   * Token requests per window per IP address, whatever the client_id; 0 disables.
   * Default 300. Bounds a caller who invents a new client_id for every attempt.
   */
  tokenPerAddressPerMinute?: number;
  /** Model API calls (health included) per window per access token; 0 disables. Default 6000. */
  apiPerMinute?: number;
  /** The window, ms. Default 60 000; tests shorten it, and the limits then count per window. */
  windowMs?: number;
}

export interface ResolvedRateLimit {
  /** 0: no limit. */
  tokenPerWindow: number;
  /** 0: no limit. */
  tokenPerAddressWindow: number;
  /** 0: no limit. */
  apiPerWindow: number;
  windowMs: number;
}

export interface ResolvedOptions {
  dataDir: string;
  host: string;
  port: number;
  region: string;
  tokenTtlSeconds: number;
  maxBlobBytes: number;
  jobWorkers: number;
  jobLeaseMs: number;
  bodyIdleMs: number;
  logger: boolean;
  logDestination: { write(line: string): unknown } | undefined;
  rateLimit: ResolvedRateLimit;
  store: StoreChoice;
}

export const GiB = 1024 ** 3;

export const DEFAULT_RATE_LIMIT: ResolvedRateLimit = {
  tokenPerWindow: 120,
  tokenPerAddressWindow: 300,
  apiPerWindow: 6000,
  windowMs: 60_000,
};

function resolveRateLimit(options: RateLimitOptions | false | undefined): ResolvedRateLimit {
  if (options === false) return { ...DEFAULT_RATE_LIMIT, tokenPerWindow: 0, tokenPerAddressWindow: 0, apiPerWindow: 0 };
  const count = (name: string, value: number | undefined, fallback: number): number => {
    const v = value ?? fallback;
    if (!Number.isSafeInteger(v) || v < 0)
      throw new RangeError(`rateLimit.${name} must be an integer >= 0 (0 disables), got ${String(value)}`);
    return v;
  };
  const windowMs = options?.windowMs ?? DEFAULT_RATE_LIMIT.windowMs;
  if (!Number.isSafeInteger(windowMs) || windowMs <= 0)
    throw new RangeError(`rateLimit.windowMs must be a positive integer, got ${String(windowMs)}`);
  return {
    tokenPerWindow: count("tokenPerMinute", options?.tokenPerMinute, DEFAULT_RATE_LIMIT.tokenPerWindow),
    tokenPerAddressWindow: count(
      "tokenPerAddressPerMinute",
      options?.tokenPerAddressPerMinute,
      DEFAULT_RATE_LIMIT.tokenPerAddressWindow,
    ),
    apiPerWindow: count("apiPerMinute", options?.apiPerMinute, DEFAULT_RATE_LIMIT.apiPerWindow),
    windowMs,
  };
}

export function resolveOptions(options: ServiceOptions): ResolvedOptions {
  if (!options.dataDir) throw new TypeError("startService needs a dataDir");
  const positive = (name: string, value: number | undefined, fallback: number): number => {
    const v = value ?? fallback;
    if (!Number.isFinite(v) || v <= 0) throw new RangeError(`${name} must be a positive number, got ${String(value)}`);
    return v;
  };
  return {
    dataDir: resolve(options.dataDir),
    host: options.host ?? "127.0.0.1",
    port: options.port ?? 0,
    region: options.region ?? "local",
    tokenTtlSeconds: Math.floor(positive("tokenTtlSeconds", options.tokenTtlSeconds, 3600)),
    maxBlobBytes: Math.floor(positive("maxBlobBytes", options.maxBlobBytes, GiB)),
    jobWorkers: Math.floor(positive("jobWorkers", options.jobWorkers, Math.max(1, availableParallelism() - 1))),
    jobLeaseMs: Math.floor(positive("jobLeaseMs", options.jobLeaseMs, 10_000)),
    bodyIdleMs: Math.floor(positive("bodyIdleMs", options.bodyIdleMs, BODY_IDLE_MS)),
    logger: options.logger ?? false,
    logDestination: options.logDestination,
    rateLimit: resolveRateLimit(options.rateLimit),
    store: chooseStore({ store: options.store, sqliteDriver: options.sqliteDriver }),
  };
}
