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
  // WAL with synchronous=NORMAL can lose the last commits on power loss but never
  // corrupts; FULL makes every acknowledged upload survive a power cut too.
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
  db.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)").run(key, create());
  return (db.prepare("SELECT value FROM meta WHERE key = ?").get(key) as { value: string }).value;
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
