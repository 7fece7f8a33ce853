/**
 * The SQLite connection the store uses, whichever driver fills it: Node's built-in
 * `node:sqlite` (Node 22.13+, 22.5+ with --experimental-sqlite, and Deno) or the
 * better-sqlite3 addon (Node 20). Only this file and the two driver files know there
 * are two; the store sees `Db` and `Statement`, and one transaction implementation
 * runs on both, so BEGIN IMMEDIATE, savepoints and rollback behave the same.
 */
import { betterSqlite3Driver } from "./sqlite-better.js";
import type { DriverLoad, RawConnection, SqliteDriver, Statement } from "./sqlite-driver.js";
import { nodeSqliteDriver } from "./sqlite-node.js";

export type { SqlParams, SqlValue, Statement } from "./sqlite-driver.js";

/** The drivers, in the order mdps tries them when none is asked for. */
export const SQLITE_DRIVERS = ["node-sqlite", "better-sqlite3"] as const;
export type SqliteDriverName = (typeof SQLITE_DRIVERS)[number];

/** The environment variable that forces a driver (`node-sqlite` or `better-sqlite3`). */
export const SQLITE_DRIVER_ENV = "MDPS_SQLITE_DRIVER";

export interface Db {
  readonly driver: SqliteDriverName;
  prepare(sql: string): Statement;
  exec(sql: string): void;
  /** True inside `transaction` (or any transaction SQLite has open on this connection). */
  readonly inTransaction: boolean;
  /**
   * Runs `fn` in a write transaction taken with BEGIN IMMEDIATE, committed when it
   * returns and rolled back when it throws. Nested calls become savepoints, so an inner
   * throw undoes only the inner part. `fn` must be synchronous.
   */
  transaction<T>(fn: () => T): T;
  close(): void;
}

export interface SqliteOpenOptions {
  /** Which driver; default: `MDPS_SQLITE_DRIVER`, else the first of SQLITE_DRIVERS this runtime can load. */
  driver?: SqliteDriverName | undefined;
  readOnly?: boolean;
}

const DRIVERS: Record<SqliteDriverName, SqliteDriver> = {
  "node-sqlite": nodeSqliteDriver,
  "better-sqlite3": betterSqlite3Driver,
};

const loaded = new Map<SqliteDriverName, DriverLoad>();

function load(name: SqliteDriverName): DriverLoad {
  let result = loaded.get(name);
  if (!result) loaded.set(name, (result = DRIVERS[name].load()));
  return result;
}

function isDriverName(value: string): value is SqliteDriverName {
  return (SQLITE_DRIVERS as readonly string[]).includes(value);
}

/** The driver `MDPS_SQLITE_DRIVER` asks for, or undefined when it is unset or empty. */
export function sqliteDriverFromEnv(env: NodeJS.ProcessEnv = process.env): SqliteDriverName | undefined {
  const value = env[SQLITE_DRIVER_ENV]?.trim();
  if (!value) return undefined;
  if (!isDriverName(value))
    throw new Error(
      `${SQLITE_DRIVER_ENV} must be one of ${SQLITE_DRIVERS.join(", ")} (or unset to choose automatically), got "${value}".`,
    );
  return value;
}

function runtimeName(): string {
  const deno = (globalThis as { Deno?: { version: { deno: string } } }).Deno;
  return deno ? `Deno ${deno.version.deno}` : `Node ${process.version}`;
}

/**
 * The driver to use: `requested` (an option), else `MDPS_SQLITE_DRIVER`, else the first
 * of SQLITE_DRIVERS this runtime loads. A driver asked for that does not load is an
 * error, never a silent fallback to the other one.
 */
export function chooseSqliteDriver(requested?: SqliteDriverName): SqliteDriverName {
  const forced = requested ?? sqliteDriverFromEnv();
  if (forced !== undefined) {
    if (!isDriverName(forced))
      throw new Error(`sqliteDriver must be one of ${SQLITE_DRIVERS.join(", ")}, got "${String(forced)}".`);
    const result = load(forced);
    if (!result.ok)
      throw new Error(
        `The SQLite driver ${forced} was asked for (${requested === undefined ? SQLITE_DRIVER_ENV : "the sqliteDriver option"}) but cannot be used on ${runtimeName()}: ${result.reason} Ask for another driver, or leave it unset to choose automatically.`,
        { cause: result.cause },
      );
    return forced;
  }
  const found = SQLITE_DRIVERS.find((name) => load(name).ok);
  if (found !== undefined) return found;
  // better-sqlite3's reason: on Node 20, the runtime without node:sqlite, the one a user can act on.
  const failure = load("better-sqlite3");
  throw new Error(failure.ok ? "no SQLite driver" : failure.reason, { cause: failure.ok ? undefined : failure.cause });
}

/** The drivers this runtime can load, in SQLITE_DRIVERS order (for tests and diagnostics). */
export function availableSqliteDrivers(): SqliteDriverName[] {
  return SQLITE_DRIVERS.filter((name) => load(name).ok);
}

/** Opens `file` with the chosen driver (see chooseSqliteDriver). */
export function openSqlite(file: string, options: SqliteOpenOptions = {}): Db {
  const driver = chooseSqliteDriver(options.driver);
  return new SqliteConnection(driver, DRIVERS[driver].open(file, { readOnly: options.readOnly ?? false }));
}

class SqliteConnection implements Db {
  /** Open transactions and savepoints, for drivers that cannot ask SQLite (Node 22 before 22.16). */
  private depth = 0;

  constructor(
    readonly driver: SqliteDriverName,
    private readonly raw: RawConnection,
  ) {}

  prepare(sql: string): Statement {
    return this.raw.prepare(sql);
  }

  exec(sql: string): void {
    this.raw.exec(sql);
  }

  get inTransaction(): boolean {
    return this.raw.inTransaction ?? this.depth > 0;
  }

  transaction<T>(fn: () => T): T {
    // The steps of better-sqlite3's own transaction functions, so both drivers behave alike.
    const nested = this.inTransaction;
    this.raw.exec(nested ? "SAVEPOINT mdps" : "BEGIN IMMEDIATE");
    this.depth++;
    try {
      const result = fn();
      if (isThenable(result))
        throw new TypeError("A transaction's function must be synchronous; it returned a promise.");
      this.raw.exec(nested ? "RELEASE mdps" : "COMMIT");
      return result;
    } catch (error) {
      this.undo(nested);
      throw error;
    } finally {
      this.depth--;
    }
  }

  private undo(nested: boolean): void {
    // SQLite may already have rolled the whole transaction back (a full disk, an I/O error).
    if (this.raw.inTransaction === false) return;
    try {
      this.raw.exec(nested ? "ROLLBACK TO mdps; RELEASE mdps" : "ROLLBACK");
    } catch (error) {
      // A driver that cannot say whether a transaction is open finds out here; the
      // caller's error is the one worth seeing.
      if (this.raw.inTransaction !== undefined) throw error;
    }
  }

  close(): void {
    this.raw.close();
  }
}

function isThenable(value: unknown): boolean {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

/** SQLITE_CONSTRAINT_PRIMARYKEY: better-sqlite3 names it in `code`, node:sqlite gives its number in `errcode`. */
const PRIMARY_KEY_CLASH = 1555;

/** Whether `err` is an insert refused because a row with its primary key exists, on either driver. */
export function isPrimaryKeyClash(err: unknown): boolean {
  const e = err as { code?: unknown; errcode?: unknown } | null;
  return e?.code === "SQLITE_CONSTRAINT_PRIMARYKEY" || e?.errcode === PRIMARY_KEY_CLASH;
}
