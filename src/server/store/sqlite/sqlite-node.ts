/**
 * The `node-sqlite` driver: the SQLite built into the runtime (`node:sqlite`'s
 * DatabaseSync), in Node 22.13+ (22.5-22.12 with --experimental-sqlite) and Deno. It
 * needs no native build, so it is the one that runs where better-sqlite3's addon cannot
 * load (Deno, a Node whose ABI the addon was not built for).
 */
import type { RawConnection, SqliteDriver, SqlParams, SqlValue, Statement } from "./sqlite-driver.js";

// The part of node:sqlite mdps uses (@types/node 20 does not describe the module).
interface StatementSync {
  run(...params: unknown[]): { changes: number | bigint };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  /** Node 22.15+ and Deno. */
  setAllowUnknownNamedParameters?(enabled: boolean): void;
}
interface DatabaseSync {
  prepare(sql: string): StatementSync;
  exec(sql: string): void;
  close(): void;
  /** Node 22.16+, 24 and Deno. */
  readonly isTransaction?: boolean;
}
interface NodeSqlite {
  DatabaseSync: new (path: string, options?: { readOnly?: boolean }) => DatabaseSync;
}

let sqlite: NodeSqlite | undefined;

const MISSING =
  "this runtime has no node:sqlite (it comes with Node 22.13 and later, Node 22.5 to 22.12 run with --experimental-sqlite, and Deno).";

/**
 * Node prints "ExperimentalWarning: SQLite is an experimental feature" when node:sqlite
 * first loads (Node 22 and 24 at least). mdps chose the driver, not the user, and uses
 * only its settled core (prepare, run/get/all, exec), so the warning tells the reader of
 * a terminal or notebook nothing they can act on: it is dropped, and only it.
 */
function withoutSqliteWarning<T>(load: () => T): T {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- put back as it was, and called with process as this
  const emitWarning = process.emitWarning;
  process.emitWarning = (warning: string | Error, ...rest: never[]) => {
    const message = typeof warning === "string" ? warning : warning.message;
    if (/^SQLite is an experimental feature/.test(message)) return;
    emitWarning.call(process, warning, ...rest);
  };
  try {
    return load();
  } finally {
    process.emitWarning = emitWarning;
  }
}

function bind(params: SqlParams): unknown[] {
  // better-sqlite3 binds undefined as NULL; node:sqlite refuses it. Copy only when needed.
  const [first] = params;
  if (params.length === 1 && first !== null && typeof first === "object" && !(first instanceof Uint8Array)) {
    const named: Record<string, SqlValue> = first;
    if (!Object.values(named).includes(undefined)) return params;
    return [Object.fromEntries(Object.entries(named).map(([key, value]) => [key, value ?? null]))];
  }
  const values = params as SqlValue[];
  return values.includes(undefined) ? values.map((value) => value ?? null) : values;
}

class NodeStatement implements Statement {
  constructor(private readonly statement: StatementSync) {
    // better-sqlite3 ignores named parameters the SQL does not use; so does mdps's store.
    statement.setAllowUnknownNamedParameters?.(true);
  }
  run(...params: SqlParams): { changes: number } {
    return { changes: Number(this.statement.run(...bind(params)).changes) };
  }
  get(...params: SqlParams): unknown {
    return this.statement.get(...bind(params));
  }
  all(...params: SqlParams): unknown[] {
    return this.statement.all(...bind(params));
  }
}

export const nodeSqliteDriver: SqliteDriver = {
  load() {
    const getBuiltinModule = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
    if (typeof getBuiltinModule !== "function") return { ok: false, reason: MISSING };
    let loaded: unknown;
    try {
      loaded = withoutSqliteWarning(() => getBuiltinModule.call(process, "node:sqlite"));
    } catch (error) {
      return { ok: false, reason: MISSING, cause: error };
    }
    if (loaded === undefined) return { ok: false, reason: MISSING };
    sqlite = loaded as NodeSqlite;
    return { ok: true };
  },
  open(file, { readOnly }): RawConnection {
    if (!sqlite) throw new Error("node:sqlite is not loaded");
    const db = new sqlite.DatabaseSync(file, { readOnly });
    return {
      prepare: (sql) => new NodeStatement(db.prepare(sql)),
      exec: (sql) => {
        db.exec(sql);
      },
      get inTransaction() {
        return db.isTransaction;
      },
      close: () => {
        db.close();
      },
    };
  },
};
