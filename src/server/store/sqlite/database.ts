import { randomBytes } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync } from "node:fs";
import { join } from "node:path";
import { MIGRATIONS } from "./migrations.js";
import { openSqlite, type Db, type SqliteDriverName, type Statement } from "./sqlite.js";

export type { Db, SqliteDriverName, Statement } from "./sqlite.js";

export const DATABASE_FILE = "mdps.sqlite";

/** How long a write waits for another process's write lock before SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 10_000;
/** The wait of a timer's bookkeeping write (heartbeat, lease renewal): the next tick redoes it. */
const TICK_BUSY_TIMEOUT_MS = 100;

export interface OpenDatabaseOptions {
  /** The SQLite driver; default: `MDPS_SQLITE_DRIVER`, else node:sqlite where the runtime has it, else better-sqlite3. */
  driver?: SqliteDriverName | undefined;
}

/**
 * Opens (creating if needed) the SQLite database of a data dir. WAL and a busy
 * timeout let any number of service processes and the admin commands share the
 * file: readers never block, and a writer waits up to busy_timeout for the lock.
 */
export function openDatabase(dataDir: string, options: OpenDatabaseOptions = {}): Db {
  // Private whoever creates it: datasets, outputs and secret hashes live here.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, DATABASE_FILE);
  // Created with its mode first: SQLite would use the umask's, and gives its -wal and
  // -shm files the database file's mode.
  if (!existsSync(file)) {
    try {
      closeSync(openSync(file, "wx", 0o600));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
  }
  const db = openSqlite(file, { driver: options.driver });
  // First, so that switching to WAL waits for another process opening the file too
  // (better-sqlite3 opens with a 5 s timeout, node:sqlite with none).
  db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA foreign_keys = ON");
  // FULL is the connection's default: every commit fsyncs the WAL, so whatever the
  // service acknowledges (an upload's 200, a job accepted, a terminal state with its
  // outputs) survives an OS crash or power cut. Bookkeeping that may be lost with the
  // last second before a crash (progress, log and event rows, claims, lease renewals,
  // heartbeats) commits through relaxedWrite(), under NORMAL: its WAL frames are written
  // but not fsynced, and the next FULL commit's fsync of the WAL file makes them durable
  // too (WAL frames are replayed in order, so a durable commit implies every earlier one).
  db.exec("PRAGMA synchronous = FULL");
  migrate(db);
  return db;
}

function migrate(db: Db): void {
  // IMMEDIATE takes the write lock first, so two processes opening a new data dir
  // at once cannot both run the same migration.
  db.transaction(() => {
    const current = (db.prepare("PRAGMA user_version").get() as { user_version: number }).user_version;
    // A newer mdps migrated this data dir: this one would misread or miswrite its tables.
    if (current > MIGRATIONS.length)
      throw new Error(
        `the data dir's database schema is at version ${current}, newer than this mdps knows (up to ${MIGRATIONS.length}): a newer mdps migrated it. Run that newer version on it (upgrade this one); an older one does not open it`,
      );
    for (let i = current; i < MIGRATIONS.length; i++) {
      db.exec(MIGRATIONS[i]!);
    }
    if (current < MIGRATIONS.length) db.exec(`PRAGMA user_version = ${MIGRATIONS.length}`);
  });
  metaValue(db, "instance_secret", () => randomBytes(32).toString("base64url"));
}

/** Reads a meta value, creating it with `create` the first time. */
export function metaValue(db: Db, key: string, create: () => string): string {
  prepared(db, "INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)").run(key, create());
  return (prepared(db, "SELECT value FROM meta WHERE key = ?").get(key) as { value: string }).value;
}

const statements = new WeakMap<Db, Map<string, Statement>>();

/**
 * The statement for `sql` on `db`, prepared the first time and reused after: preparing
 * costs far more than running a small statement. Callers with SQL built from a list
 * (`IN (?, ?, ...)`) add one entry per list length.
 */
export function prepared(db: Db, sql: string): Statement {
  let cache = statements.get(db);
  if (!cache) statements.set(db, (cache = new Map<string, Statement>()));
  let statement = cache.get(sql);
  if (!statement) cache.set(sql, (statement = db.prepare(sql)));
  return statement;
}

/**
 * Runs `fn` as a write transaction (BEGIN IMMEDIATE) committed with synchronous=NORMAL:
 * no fsync, for rows that may be lost with the last moments before an OS crash
 * (progress, logs, events, claims, leases, heartbeats), never for anything the service
 * acknowledges. SQLite allows the safety level to change only outside a transaction, so
 * inside one `fn` simply joins it (and commits as durably as it does).
 */
export function relaxedWrite<T>(db: Db, fn: () => T): T {
  if (db.inTransaction) return fn();
  prepared(db, "PRAGMA synchronous = NORMAL").run();
  try {
    return writeTransaction(db, fn);
  } finally {
    prepared(db, "PRAGMA synchronous = FULL").run();
  }
}
/**
 * A timer's bookkeeping write (heartbeat, lease renewal) as relaxedWrite, waiting at most
 * TICK_BUSY_TIMEOUT_MS for the write lock. SQLite waits synchronously: the full busy
 * timeout behind a lock another process keeps (frozen mid-write) would stall this
 * process's event loop, every request with it, at every tick. The next tick redoes it.
 */
export function tickWrite<T>(db: Db, fn: () => T): T {
  if (db.inTransaction) return fn();
  db.exec(`PRAGMA busy_timeout = ${TICK_BUSY_TIMEOUT_MS}`);
  try {
    return relaxedWrite(db, fn);
  } finally {
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  }
}

/**
 * Runs `fn` in a transaction that takes the write lock before its first read (BEGIN
 * IMMEDIATE). With several processes on one database a transaction that reads and
 * then writes must do this: a deferred one that read a snapshot another process has
 * since changed fails at its first write instead of waiting (busy_timeout only
 * covers waiting for the lock).
 */
export function writeTransaction<T>(db: Db, fn: () => T): T {
  return db.transaction(fn);
}
