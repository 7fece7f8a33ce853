/**
 * The `better-sqlite3` driver: the native addon, for Node 20 (which has no node:sqlite).
 * It is required only when chosen, so a runtime that uses node:sqlite never loads an
 * addon built for another Node's ABI (or one Deno cannot load at all).
 */
import { createRequire } from "node:module";
import type BetterSqlite3 from "better-sqlite3";
import type { RawConnection, SqliteDriver } from "./sqlite-driver.js";

let Database: typeof BetterSqlite3 | undefined;

/** What to do about an addon that does not load, instead of the list of paths it tried. */
function explain(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  if (/NODE_MODULE_VERSION/.test(message))
    return `better-sqlite3's native build is for another Node version: run \`npm rebuild better-sqlite3\` with this Node (Node 22.13 and later need no build: mdps uses their built-in node:sqlite).`;
  // npm can skip the native build: `--strict-allow-scripts`, `--ignore-scripts`, or a
  // project whose `allowScripts` does not allow it.
  if (/Could not locate the bindings file|better_sqlite3\.node/.test(message))
    return 'mdps stores its data with SQLite through better-sqlite3, whose native build has not run: add "allowScripts": { "better-sqlite3": true } to your package.json, then run `npm rebuild better-sqlite3`.';
  if (code === "MODULE_NOT_FOUND" || code === "ERR_MODULE_NOT_FOUND")
    return "better-sqlite3 is not installed: run `npm install better-sqlite3`, or use Node 22.13 or later (built-in node:sqlite).";
  return `better-sqlite3 does not load here (${message}).`;
}

export const betterSqlite3Driver: SqliteDriver = {
  load() {
    try {
      const required = createRequire(import.meta.url)("better-sqlite3") as typeof BetterSqlite3;
      // The addon itself loads with the first connection.
      new required(":memory:").close();
      Database = required;
      return { ok: true };
    } catch (error) {
      return { ok: false, reason: explain(error), cause: error };
    }
  },
  open(file, { readOnly }): RawConnection {
    if (!Database) throw new Error("better-sqlite3 is not loaded");
    const db = new Database(file, { readonly: readOnly });
    return {
      prepare: (sql) => db.prepare(sql),
      exec: (sql) => {
        db.exec(sql);
      },
      get inTransaction() {
        return db.inTransaction;
      },
      close: () => {
        db.close();
      },
    };
  },
};
