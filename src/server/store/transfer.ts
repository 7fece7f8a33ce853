/**
 * Moves a store's records between a data dir's SQLite and a PostgreSQL database, for a
 * class or team that outgrows one machine (and back): models, applications (their
 * secret hashes), tokens, blob records, jobs with their events and logs, damage, and the
 * instance secret that keys job digests. Blob files are not copied: they stay in the data
 * dir, which the replicas mount as their blob directory. Transient rows (portal sessions,
 * login tokens, form nonces, registered processes) are left behind.
 */
import { isSafeBlobFile } from "../blob-bytes/blob-files.js";
import { openDatabase, type Db } from "./sqlite/database.js";
import type { SqliteDriverName } from "./sqlite/sqlite.js";
import { openPgDb, type PgDb, type SqlParam } from "./postgres/connection.js";
import { migratePg } from "./postgres/migrations.js";

/** The tables copied, parents first, each in the order its rows were made. */
const TABLES: ReadonlyArray<{ name: string; sqliteOrder: string; pgOrder: string }> = [
  { name: "models", sqliteOrder: "rowid", pgOrder: "created_at, id" },
  { name: "applications", sqliteOrder: "rowid", pgOrder: "created_at, client_id" },
  { name: "tokens", sqliteOrder: "rowid", pgOrder: "expires_at, token_hash" },
  { name: "blobs", sqliteOrder: "rowid", pgOrder: "seq" },
  { name: "jobs", sqliteOrder: "rowid", pgOrder: "seq" },
  { name: "job_events", sqliteOrder: "seq", pgOrder: "seq" },
  { name: "job_logs", sqliteOrder: "seq", pgOrder: "seq" },
  { name: "damaged_blobs", sqliteOrder: "rowid", pgOrder: "blob_id, revision" },
];
/** Numbered by the store that receives them: order is kept by inserting in order. */
const GENERATED = new Set(["seq"]);
/** Rows per INSERT. */
const BATCH = 500;

export interface TransferReport {
  /** Rows copied per table. */
  rows: Record<string, number>;
}

type Row = Record<string, unknown>;

/** Copies a data dir's records into an empty PostgreSQL database (created tables first). */
export async function exportToPostgres(options: {
  dataDir: string;
  url: string;
  sqliteDriver?: SqliteDriverName | undefined;
}): Promise<TransferReport> {
  const sqlite = openDatabase(options.dataDir, { driver: options.sqliteDriver });
  const pg = openPgDb(options.url);
  try {
    try {
      await migratePg(pg.pool);
    } catch (err) {
      throw pg.fault(err);
    }
    await refuseUnlessEmpty((table) => pg.one(`SELECT 1 AS found FROM ${table} LIMIT 1`), "the PostgreSQL database");
    const rows: Record<string, number> = {};
    await pg.transaction(async () => {
      for (const table of TABLES) {
        const source = sqlite.prepare(`SELECT * FROM ${table.name} ORDER BY ${table.sqliteOrder}`).all() as Row[];
        refuseUnsafeIds(table.name, source, `the data dir ${options.dataDir}`);
        rows[table.name] = await insertPg(pg, table.name, await pgColumns(pg, table.name), source);
      }
      await copySecretToPg(sqlite, pg);
    });
    return { rows };
  } finally {
    sqlite.close();
    await pg.close();
  }
}

/** Copies a PostgreSQL database's records into a data dir whose store is empty. */
export async function importFromPostgres(options: {
  url: string;
  dataDir: string;
  sqliteDriver?: SqliteDriverName | undefined;
}): Promise<TransferReport> {
  const pg = openPgDb(options.url);
  const sqlite = openDatabase(options.dataDir, { driver: options.sqliteDriver });
  try {
    await refuseUnlessEmpty(
      (table) => Promise.resolve(sqlite.prepare(`SELECT 1 AS found FROM ${table} LIMIT 1`).get()),
      `the data dir ${options.dataDir}`,
    );
    const read: Array<[string, Row[]]> = [];
    for (const table of TABLES) {
      const source = await pg.rows<Row>(`SELECT * FROM ${table.name} ORDER BY ${table.pgOrder}`);
      refuseUnsafeIds(table.name, source, "the PostgreSQL database");
      read.push([table.name, source]);
    }
    const secret = await pg.one<{ value: string }>("SELECT value FROM meta WHERE key = 'instance_secret'");
    const rows: Record<string, number> = {};
    sqlite.transaction(() => {
      for (const [name, source] of read) rows[name] = insertSqlite(sqlite, name, source);
      if (secret) sqlite.prepare("UPDATE meta SET value = ? WHERE key = 'instance_secret'").run(secret.value);
    });
    return { rows };
  } catch (err) {
    throw pg.fault(err);
  } finally {
    sqlite.close();
    await pg.close();
  }
}

/** Refuses a target that holds models already: records of two stores are never merged. */
async function refuseUnlessEmpty(firstRow: (table: string) => Promise<unknown>, what: string): Promise<void> {
  if ((await firstRow("models")) !== undefined)
    throw new Error(`${what} already holds models: copy into an empty store (a new database, or a new data dir)`);
}

/**
 * Refuses a copy whose blob records name ids or revisions this service never writes: a
 * blob id becomes a file name in the blob dir, so one such as `../../x` from a tampered
 * database would reach outside it at the next prune. Nothing is copied then.
 */
function refuseUnsafeIds(table: string, rows: readonly Row[], what: string): void {
  const column = table === "blobs" ? "id" : table === "damaged_blobs" ? "blob_id" : undefined;
  if (column === undefined) return;
  const bad = rows.filter((r) => !isSafeBlobFile(String(r[column]), Number(r.revision)));
  if (bad.length === 0) return;
  throw new Error(
    `${what} holds ${bad.length} ${table} record(s) whose blob id is not a lower-case UUID or whose revision is not a positive integer (the first: ${JSON.stringify(String(bad[0]![column]).slice(0, 80))}): nothing was copied. Blob ids become file names; such records were not written by mdps. Remove them from the source (or restore it from a backup) and copy again.`,
  );
}

async function pgColumns(pg: PgDb, table: string): Promise<Set<string>> {
  const rows = await pg.rows<{ column_name: string }>(
    "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1",
    [table],
  );
  return new Set(rows.map((r) => r.column_name));
}

/** The columns both sides have, without the ones the receiving store numbers itself. */
function sharedColumns(row: Row, target: Set<string>): string[] {
  return Object.keys(row).filter((c) => target.has(c) && !GENERATED.has(c));
}

async function insertPg(pg: PgDb, table: string, target: Set<string>, rows: Row[]): Promise<number> {
  const first = rows[0];
  if (!first) return 0;
  const columns = sharedColumns(first, target);
  for (let start = 0; start < rows.length; start += BATCH) {
    const batch = rows.slice(start, start + BATCH);
    const values = batch.map((_, r) => `(${columns.map((__, c) => `$${r * columns.length + c + 1}`).join(", ")})`);
    const params = batch.flatMap((row) => columns.map((c) => row[c] as SqlParam));
    await pg.run(`INSERT INTO ${table} (${columns.join(", ")}) VALUES ${values.join(", ")}`, params);
  }
  return rows.length;
}

function insertSqlite(sqlite: Db, table: string, rows: Row[]): number {
  const first = rows[0];
  if (!first) return 0;
  const target = new Set(
    (sqlite.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map((c) => c.name),
  );
  const columns = sharedColumns(first, target);
  const insert = sqlite.prepare(
    `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
  );
  for (const row of rows) insert.run(...columns.map((c) => row[c] as string | number | null));
  return rows.length;
}

/** The data dir's instance secret replaces the one the new database made: job digests stay comparable. */
async function copySecretToPg(sqlite: Db, pg: PgDb): Promise<void> {
  const secret = sqlite.prepare("SELECT value FROM meta WHERE key = 'instance_secret'").get() as
    { value: string } | undefined;
  if (!secret) return;
  await pg.run(
    "INSERT INTO meta (key, value) VALUES ('instance_secret', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
    [secret.value],
  );
}
