/** What each SQLite driver file gives sqlite.ts: a raw connection and its statements. */

/** What a statement binds: `undefined` binds NULL, as better-sqlite3 does. */
export type SqlValue = string | number | bigint | Uint8Array | null | undefined;
/** Positional values, or one object of named ones (`@name` in the SQL, `name` as the key). */
export type SqlParams = SqlValue[] | [Record<string, SqlValue>];

export interface Statement {
  run(...params: SqlParams): { changes: number };
  /** The first row, or undefined. Integers come back as numbers. */
  get(...params: SqlParams): unknown;
  all(...params: SqlParams): unknown[];
}

/** A driver as the two driver files give it: its raw connection, before `SqliteConnection`. */
export interface SqliteDriver {
  /** Loads the driver, or says why it cannot here; called once per process. */
  load(): DriverLoad;
  open(file: string, options: { readOnly: boolean }): RawConnection;
}

export type DriverLoad = { ok: true } | { ok: false; reason: string; cause?: unknown };

export interface RawConnection {
  prepare(sql: string): Statement;
  exec(sql: string): void;
  /** SQLite's own answer (autocommit off), or undefined when this driver version cannot say. */
  readonly inTransaction: boolean | undefined;
  close(): void;
}
