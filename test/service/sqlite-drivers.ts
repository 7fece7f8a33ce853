/**
 * The SQLite drivers the store's tests run on: every driver this runtime loads
 * (better-sqlite3 on Node 20; node:sqlite on Node 22.13+, 24 and Deno, and
 * better-sqlite3 too where its addon was built for that Node). The tests use
 * `describe.each(STORE_DRIVERS)`, so each driver runs the same tests.
 */
import { availableSqliteDrivers, type SqliteDriverName } from "../../src/server/store/sqlite/sqlite.js";

export const STORE_DRIVERS: SqliteDriverName[] = availableSqliteDrivers();

/**
 * Node binaries newer than this one, to run a node:sqlite service beside a Node 20 one
 * (`MDPS_TEST_NODES`, paths separated by `:`; .ci/run sets it to the Node 22 and 24 it fetches).
 */
export const NEWER_NODES: string[] = (process.env["MDPS_TEST_NODES"] ?? "").split(":").filter((p) => p !== "");
