/**
 * A lock that the kernel holds for a service process as long as the process exists:
 * the one liveness signal on this host that cannot mistake slow for dead. A frozen
 * process (SIGSTOP, Ctrl-Z), a process whose clock lags, or one that has not been
 * scheduled for minutes still holds it; a killed or crashed one holds it no longer
 * (the kernel drops a process's locks when it exits, kill -9 included).
 *
 * The lock is a POSIX fcntl lock taken through SQLite, which the store already uses:
 * each process opens `locks/<owner>.lock` as a database and keeps `BEGIN EXCLUSIVE`
 * open for its whole life. Another process probing the file with busy_timeout 0 gets
 * SQLITE_BUSY at once while the owner lives, and the lock when it is gone. No native
 * dependency beyond the SQLite driver the store already loads.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openSqlite, type Db, type SqliteDriverName } from "./sqlite.js";

export const LOCK_DIR = "locks";

/** Locks this process holds, by owner id: probing one of them from here would risk releasing it (fcntl locks are per process). */
const held = new Map<string, Db>();

function lockPath(dataDir: string, ownerId: string): string {
  return join(dataDir, LOCK_DIR, `${ownerId}.lock`);
}

/** Takes the lock of `ownerId` for this process's life (until `releaseProcessLock`). */
export function acquireProcessLock(dataDir: string, ownerId: string, driver: SqliteDriverName): void {
  mkdirSync(join(dataDir, LOCK_DIR), { recursive: true, mode: 0o700 });
  const path = lockPath(dataDir, ownerId);
  // Created first with its mode: SQLite would create it with the umask's.
  writeFileSync(path, "", { flag: "wx", mode: 0o600 });
  const db = openSqlite(path, { driver });
  try {
    db.exec("PRAGMA busy_timeout = 0");
    db.exec("PRAGMA journal_mode = MEMORY");
    db.exec("BEGIN EXCLUSIVE");
  } catch (err) {
    db.close();
    rmSync(path, { force: true });
    throw err;
  }
  held.set(ownerId, db);
}

/** Ends the lock at a clean stop, and removes its file. */
export function releaseProcessLock(dataDir: string, ownerId: string): void {
  const db = held.get(ownerId);
  if (!db) return;
  held.delete(ownerId);
  rmSync(lockPath(dataDir, ownerId), { force: true });
  try {
    db.exec("ROLLBACK");
  } finally {
    db.close();
  }
}

/**
 * Whether the process `ownerId` of this host still lives, by its lock: "alive" while
 * the lock is held (never waiting for it), "dead" once it can be taken (the file is
 * then removed), "unknown" when there is no lock file (a process of another host, or
 * of a version without locks; the caller falls back on heartbeats).
 */
export function probeProcessLock(
  dataDir: string,
  ownerId: string,
  driver: SqliteDriverName,
): "alive" | "dead" | "unknown" {
  if (held.has(ownerId)) return "alive";
  const path = lockPath(dataDir, ownerId);
  if (!existsSync(path)) return "unknown";
  // Removed meanwhile (its owner stopped): SQLite creates an empty file, which is taken
  // and removed below, and the answer is "dead", as it should be.
  const db = openSqlite(path, { driver });
  try {
    db.exec("PRAGMA busy_timeout = 0");
    try {
      db.exec("PRAGMA journal_mode = MEMORY");
      db.exec("BEGIN EXCLUSIVE");
    } catch (err) {
      if (isBusy(err)) return "alive";
      throw err;
    }
    // Taken: the owner is gone for good (owner ids are never reused). Remove the file
    // while holding the lock, so no later probe finds it.
    rmSync(path, { force: true });
    db.exec("ROLLBACK");
    return "dead";
  } finally {
    db.close();
  }
}

/** SQLITE_BUSY or SQLITE_LOCKED, as either driver reports it. */
export function isBusy(err: unknown): boolean {
  const e = err as { code?: unknown; errcode?: unknown; message?: unknown } | null;
  if (e?.code === "SQLITE_BUSY" || e?.code === "SQLITE_LOCKED") return true;
  if (typeof e?.errcode === "number" && (e.errcode & 0xff) === 5) return true;
  return typeof e?.message === "string" && /database is locked|SQLITE_BUSY/i.test(e.message);
}
