/**
 * The PostgreSQL connection of the store: a pool opened from a postgres:// URL, and
 * transactions that store calls made inside them join (as SQLite's `db.transaction(fn)`
 * is joined by the store calls `fn` makes), carried by AsyncLocalStorage because the
 * calls are async and may interleave with other requests' on one event loop.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import pg from "pg";
import { faultKindOf, isRetryableConflict, PgStorageFault, storeError } from "./errors.js";
import { BackendRegistry } from "./backends.js";

/** How long a write waits for a row or table lock another replica holds (SQLite's busy timeout). */
export const LOCK_TIMEOUT_MS = 10_000;
/** The wait of a timer's bookkeeping write (heartbeat, lease renewal): the next tick redoes it. */
const TICK_LOCK_TIMEOUT_MS = 100;
/** Runs of a transaction that lost a race (serialization failure, deadlock) before it is a `busy` fault. */
const CONFLICT_TRIES = 3;

/**
 * The database server's clock in epoch milliseconds, as SQL. Leases, heartbeats and their
 * staleness are read and written with it, never with a replica's own clock: replicas whose
 * clocks disagree (a host minutes ahead) then still agree on which lease has run out.
 * clock_timestamp(), not now(): now() stays at the start of a long transaction.
 */
export const DB_NOW_MS = "(extract(epoch from clock_timestamp()) * 1000)::bigint";

/**
 * How far `at` (an epoch-ms time on this host's clock, such as `Date.now() + leaseMs`)
 * lies from this host's now: what the database adds to its own clock instead (SQL
 * `${DB_NOW_MS} + $n`), so a time the caller names keeps its distance from now while the
 * clock it is read on is the database's.
 */
export function msFromNow(at: number): number {
  return Math.round(at - Date.now());
}

/** Values a query binds. */
export type SqlParam = string | number | boolean | null | Buffer | readonly string[];

export interface PgConfig {
  config: pg.PoolConfig;
  /** What must never reach a message: the password, raw and percent-encoded. */
  secrets: string[];
}

/**
 * The pool settings of a `postgres://user:password@host:port/db?sslmode=...` URL. Parsed
 * here rather than handed to the driver as a connection string: a URL parser's error
 * carries its input (the password) along, and this one's errors never do.
 */
export function pgConfigOf(url: string): PgConfig {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error("the PostgreSQL URL is not a valid URL (expected postgres://user:password@host:port/database)");
  }
  if (parsed.protocol !== "postgres:" && parsed.protocol !== "postgresql:")
    throw new Error(`the PostgreSQL URL must start with postgres:// (it starts with ${parsed.protocol}//)`);
  const password = decodeURIComponent(parsed.password);
  const sslmode = parsed.searchParams.get("sslmode");
  const socketDir = parsed.searchParams.get("host");
  const config: pg.PoolConfig = {
    host: socketDir ?? (parsed.hostname.replace(/^\[|\]$/g, "") || "localhost"),
    port: parsed.port ? Number(parsed.port) : 5432,
    user: decodeURIComponent(parsed.username) || undefined,
    password,
    database: decodeURIComponent(parsed.pathname.replace(/^\//, "")) || undefined,
    ssl:
      sslmode === null || sslmode === "disable" || sslmode === "prefer"
        ? false
        : { rejectUnauthorized: sslmode === "verify-full" || sslmode === "verify-ca" },
    // The lock wait of every statement, as SQLite's busy_timeout: past it the write is a `busy` fault.
    options: `-c lock_timeout=${LOCK_TIMEOUT_MS}`,
    connectionTimeoutMillis: 10_000,
    // Names this process's sessions: the job change feed tells its own announcements from others'.
    application_name: `mdps ${randomUUID()}`,
    max: 10,
    types: typeOverrides(),
  };
  // PGPASSWORD stands in for a URL without a password (the driver reads it): redacted too.
  const secrets = [password, process.env.PGPASSWORD ?? ""].filter((s) => s !== "");
  return { config, secrets };
}

/**
 * BIGINT columns hold epoch milliseconds, sizes and counts, all far below 2^53: read as
 * numbers, as SQLite's INTEGER is, instead of the driver's default strings. Per pool,
 * not the driver's global parsers, so nothing else in the process is changed.
 */
function typeOverrides(): pg.CustomTypesConfig {
  const overrides = new pg.TypeOverrides();
  overrides.setTypeParser(pg.types.builtins.INT8, Number);
  return overrides;
}

/** The transaction a store call joins: its connection, and what to call once it has committed. */
interface Joined {
  client: pg.PoolClient;
  committed: Array<() => void>;
  /**
   * False once `fn` has settled. A call `fn` started without awaiting it carries this
   * context along (AsyncLocalStorage follows every continuation): run after the end, it
   * must not use a connection already back in the pool, perhaps in another caller's
   * transaction. It runs on its own instead.
   */
  open: boolean;
}

/** How a transaction commits: durably (fsync of the WAL), or as bookkeeping that may be lost with the last moments before a crash. */
export interface TransactionOptions {
  /** synchronous_commit = off: the commit returns before its WAL is flushed (SQLite's synchronous = NORMAL). */
  relaxed?: boolean;
  /** As relaxed, and waits at most TICK_LOCK_TIMEOUT_MS for locks (a timer's write; the next tick redoes it). */
  tick?: boolean;
}

/** BEGIN with the SET LOCALs of `options`, as one query text. */
function beginning(options: TransactionOptions): string {
  let sql = "BEGIN";
  if (options.relaxed || options.tick) sql += "; SET LOCAL synchronous_commit = off";
  if (options.tick) sql += `; SET LOCAL lock_timeout = ${TICK_LOCK_TIMEOUT_MS}`;
  return sql;
}

/**
 * Runs `fn(client)` in BEGIN/COMMIT on a client of `pool`, ROLLBACK when it throws. A run
 * that lost a race (40001, 40P01) is run again from the start, up to CONFLICT_TRIES times,
 * so `fn` must do nothing but database work that a rollback undoes.
 */
export async function withTransaction<T>(
  pool: pg.Pool,
  fn: (client: pg.PoolClient) => Promise<T>,
  options: TransactionOptions = {},
  /** Told which connection an error came from, or that none was made (see BackendRegistry). */
  blame?: (err: unknown, client: pg.PoolClient | undefined) => void,
): Promise<T> {
  for (let run = 1; ; run++) {
    const client = await pool.connect().catch((err: unknown) => {
      blame?.(err, undefined);
      throw err;
    });
    let broken: Error | undefined;
    // The server may end the session while `fn` awaits something else (admin shutdown, a
    // restart): the driver then emits the error on the client, which the pool listens to
    // only while the client is idle. Kept here, the next query fails instead, and the
    // connection is discarded on release.
    const onError = (err: Error) => (broken = err);
    client.on("error", onError);
    try {
      // One round trip: the frame's statements go as one simple-protocol query.
      await client.query(beginning(options));
      const value = await fn(client);
      await client.query("COMMIT");
      return value;
    } catch (err) {
      try {
        await client.query("ROLLBACK");
      } catch (rollbackErr) {
        // A connection that cannot roll back is not handed to the next caller.
        broken = rollbackErr instanceof Error ? rollbackErr : new Error("rollback failed");
      }
      if (run < CONFLICT_TRIES && isRetryableConflict(err)) continue;
      blame?.(err, client);
      throw err;
    } finally {
      client.off("error", onError);
      client.release(broken);
    }
  }
}

/**
 * The store's handle on the database: queries that join the transaction of the async
 * context they run in, or take a pooled connection of their own (autocommit) outside one.
 */
export class PgDb {
  private readonly joined = new AsyncLocalStorage<Joined>();
  private readonly backends: BackendRegistry;

  constructor(
    readonly pool: pg.Pool,
    private readonly secrets: readonly string[],
  ) {
    // An idle pooled connection that the server drops (restart, admin shutdown) is removed
    // by the pool; without a listener its error would end the process. The next query
    // meets the fault itself and answers it.
    pool.on("error", () => undefined);
    this.backends = new BackendRegistry(pool);
  }

  /** `err` as the store throws it; a broken connection's fault learns how to end the write it carried. */
  private thrown(err: unknown): unknown {
    const fault = storeError(err, this.secrets);
    if (fault instanceof PgStorageFault) this.backends.attachSettle(fault, err);
    return fault;
  }

  inTransaction(): boolean {
    return this.joined.getStore()?.open === true;
  }

  async query(sql: string, params: readonly SqlParam[] = []): Promise<{ rows: unknown[]; rowCount: number }> {
    const joined = this.joined.getStore();
    if (joined?.open) {
      try {
        const result = await joined.client.query(sql, params as SqlParam[]);
        return { rows: result.rows, rowCount: result.rowCount ?? 0 };
      } catch (err) {
        this.backends.blame(err, joined.client);
        throw this.thrown(err);
      }
    }
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      this.backends.neverSent(err);
      throw this.thrown(err);
    }
    let broken: Error | undefined;
    // A connection that breaks while checked out reports it on the client too (see withTransaction).
    const onError = (err: Error) => (broken = err);
    client.on("error", onError);
    try {
      const result = await client.query(sql, params as SqlParam[]);
      return { rows: result.rows, rowCount: result.rowCount ?? 0 };
    } catch (err) {
      this.backends.blame(err, client);
      if (faultKindOf(err) !== undefined) broken ??= err instanceof Error ? err : new Error(String(err));
      throw this.thrown(err);
    } finally {
      client.off("error", onError);
      // A connection that met a fault is not handed to the next caller (as pool.query does).
      client.release(broken);
    }
  }

  async rows<Row>(sql: string, params: readonly SqlParam[] = []): Promise<Row[]> {
    return (await this.query(sql, params)).rows as Row[];
  }

  async one<Row>(sql: string, params: readonly SqlParam[] = []): Promise<Row | undefined> {
    return (await this.query(sql, params)).rows[0] as Row | undefined;
  }

  /** Runs a write; the number of rows it changed. */
  async run(sql: string, params: readonly SqlParam[] = []): Promise<number> {
    return (await this.query(sql, params)).rowCount;
  }

  /**
   * Runs `fn` as one transaction; store calls inside it join it. Inside another one it
   * becomes a savepoint, as the SQLite store's nested transactions do: when it throws,
   * only its own writes are undone and the outer transaction can go on (PostgreSQL would
   * otherwise refuse every later statement of it). Relaxed and tick writes inside another
   * transaction simply join it, and commit as durably as it does.
   */
  async transaction<T>(fn: () => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    if (this.inTransaction()) return options.relaxed || options.tick ? fn() : this.savepoint(fn);
    let committed: Array<() => void> = [];
    let value: T;
    try {
      value = await withTransaction(
        this.pool,
        (client) => {
          // A run again after a conflict starts with no callbacks: the rolled-back run's changes never happened.
          committed = [];
          const joined: Joined = { client, committed, open: true };
          return this.joined.run(joined, fn).finally(() => (joined.open = false));
        },
        options,
        (err, client) => (client ? this.backends.blame(err, client) : this.backends.neverSent(err)),
      );
    } catch (err) {
      throw this.thrown(err);
    }
    for (const callback of committed) callback();
    return value;
  }

  private async savepoint<T>(fn: () => Promise<T>): Promise<T> {
    // One name for every level: PostgreSQL's RELEASE and ROLLBACK TO name the newest one.
    await this.run("SAVEPOINT mdps_nested");
    const committed = this.joined.getStore()?.committed;
    const before = committed?.length ?? 0;
    let value: T;
    try {
      value = await fn();
    } catch (err) {
      // What it would have told listeners was undone with it.
      committed?.splice(before);
      // ROLLBACK TO keeps the savepoint; RELEASE drops it, leaving the outer level as it was.
      await this.run("ROLLBACK TO SAVEPOINT mdps_nested")
        .then(() => this.run("RELEASE SAVEPOINT mdps_nested"))
        .catch(() => undefined);
      throw err;
    }
    await this.run("RELEASE SAVEPOINT mdps_nested");
    return value;
  }

  /**
   * Calls `callback` once the current transaction has committed (at once outside one):
   * a listener told of a change before its commit would read the old rows from
   * another connection, and one told of a change rolled back would be told a lie.
   */
  afterCommit(callback: () => void): void {
    const joined = this.joined.getStore();
    if (joined?.open) joined.committed.push(callback);
    else callback();
  }

  /** Bookkeeping that may be lost in a crash (progress, logs, claims): see TransactionOptions.relaxed. */
  relaxed<T>(fn: () => Promise<T>): Promise<T> {
    return this.transaction(fn, { relaxed: true });
  }

  /** A timer's bookkeeping write: see TransactionOptions.tick. */
  tick<T>(fn: () => Promise<T>): Promise<T> {
    return this.transaction(fn, { tick: true });
  }

  /** A connection outside the pool, for a session-long lock (see processes.ts). */
  async dedicatedClient(): Promise<pg.Client> {
    const client = new pg.Client(this.pool.options);
    client.on("error", () => undefined);
    try {
      await client.connect();
    } catch (err) {
      throw storeError(err, this.secrets);
    }
    return client;
  }

  /** `err` as the store throws it (redacted fault or the error itself). */
  fault(err: unknown): unknown {
    return storeError(err, this.secrets);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/** Opens a pool on `url`; connects lazily, at the first query. */
export function openPgDb(url: string): PgDb {
  const { config, secrets } = pgConfigOf(url);
  return new PgDb(new pg.Pool(config), secrets);
}
