import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { MIGRATIONS } from "./migrations.js";

export type Db = Database.Database;

export const DATABASE_FILE = "mdps.sqlite";

/**
 * Opens (creating if needed) the SQLite database of a data dir. WAL and a busy
 * timeout let any number of service processes and the admin commands share the
 * file: readers never block, and a writer waits up to busy_timeout for the lock.
 */
export function openDatabase(dataDir: string): Db {
  mkdirSync(dataDir, { recursive: true });
  const db = newDatabase(join(dataDir, DATABASE_FILE));
  db.pragma("journal_mode = WAL");
  db.pragma("busy_timeout = 10000");
  db.pragma("foreign_keys = ON");
  // FULL is the connection's default: every commit fsyncs the WAL, so whatever the
  // service acknowledges (an upload's 200, a job accepted, a terminal state with its
  // outputs) survives an OS crash or power cut. Bookkeeping that may be lost with the
  // last second before a crash (progress, log and event rows, claims, lease renewals,
  // heartbeats) commits through relaxedWrite(), under NORMAL: its WAL frames are written
  // but not fsynced, and the next FULL commit's fsync of the WAL file makes them durable
  // too (WAL frames are replayed in order, so a durable commit implies every earlier one).
  db.pragma("synchronous = FULL");
  migrate(db);
  return db;
}

/**
 * In a project that depends on mdps, npm can skip better-sqlite3's install script (its
 * native build): `--strict-allow-scripts` or `--ignore-scripts`, or a project whose
 * `allowScripts` does not allow it. Say what to add instead of the list of paths tried.
 */
function newDatabase(file: string): Db {
  try {
    return new Database(file);
  } catch (error) {
    if (error instanceof Error && /Could not locate the bindings file|better_sqlite3\.node/.test(error.message)) {
      throw new Error(
        'mdps stores its data with SQLite through better-sqlite3, whose native build has not run: add "allowScripts": { "better-sqlite3": true } to your package.json, then run `npm rebuild better-sqlite3`.',
        { cause: error },
      );
    }
    throw error;
  }
}

function migrate(db: Db): void {
  // IMMEDIATE takes the write lock first, so two processes opening a new data dir
  // at once cannot both run the same migration.
  db.transaction(() => {
    const current = db.pragma("user_version", { simple: true }) as number;
    for (let i = current; i < MIGRATIONS.length; i++) {
      db.exec(MIGRATIONS[i]!);
    }
    if (current < MIGRATIONS.length) db.pragma(`user_version = ${MIGRATIONS.length}`);
  }).immediate();
  metaValue(db, "instance_secret", () => randomBytes(32).toString("base64url"));
}

/** Reads a meta value, creating it with `create` the first time. */
export function metaValue(db: Db, key: string, create: () => string): string {
  prepared(db, "INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)").run(key, create());
  return (prepared(db, "SELECT value FROM meta WHERE key = ?").get(key) as { value: string }).value;
}

const statements = new WeakMap<Db, Map<string, Database.Statement>>();

/**
 * The statement for `sql` on `db`, prepared the first time and reused after: preparing
 * costs far more than running a small statement. Callers with SQL built from a list
 * (`IN (?, ?, ...)`) add one entry per list length.
 */
export function prepared(db: Db, sql: string): Database.Statement {
  let cache = statements.get(db);
  if (!cache) statements.set(db, (cache = new Map<string, Database.Statement>()));
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
 * Runs `fn` in a transaction that takes the write lock before its first read (BEGIN
 * IMMEDIATE). With several processes on one database a transaction that reads and
 * then writes must do this: a deferred one that read a snapshot another process has
 * since changed fails at its first write instead of waiting (busy_timeout only
 * covers waiting for the lock).
 */
export function writeTransaction<T>(db: Db, fn: () => T): T {
  return db.transaction(fn).immediate();
}

export function nowIso(): string {
  return new Date().toISOString();
}
