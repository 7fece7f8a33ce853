/**
 * The PostgreSQL schema: the SQLite store's tables and columns (types translated, the same
 * NOT NULLs), applied once even when replicas start together (the advisory lock), and
 * recorded in schema_migrations so a restart applies nothing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { expect, it } from "vitest";
import { openDatabase } from "../../src/server/store/sqlite/database.js";
import { migratePg, PG_MIGRATIONS } from "../../src/server/store/postgres/migrations.js";
import { postgresTool } from "../harness/postgres.js";
import { describeWithTool } from "../required-tool.js";
import { useCluster } from "./cluster.js";

/** How each SQLite declared type is held in PostgreSQL. */
const TYPES: Record<string, string[]> = {
  TEXT: ["text"],
  INTEGER: ["bigint", "integer", "smallint"],
  REAL: ["double precision"],
};

describeWithTool(postgresTool, "PostgreSQL migrations", () => {
  const pgc = useCluster();

  it("makes the SQLite store's tables and columns, with matching types and NOT NULLs", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mdps-pg-schema-"));
    const url = await pgc.fresh();
    await pgc.open(url);
    const pool = new pg.Pool({ connectionString: url });
    try {
      const sqlite = openDatabase(dir);
      const tables = (
        sqlite
          .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
          .all() as Array<{
          name: string;
        }>
      ).map((t) => t.name);
      expect(tables.length).toBeGreaterThan(10);
      for (const table of tables) {
        const expected = sqlite.prepare(`PRAGMA table_info(${table})`).all() as Array<{
          name: string;
          type: string;
          notnull: number;
          pk: number;
        }>;
        const actual = await pool.query<{ column_name: string; data_type: string; is_nullable: string }>(
          "SELECT column_name, data_type, is_nullable FROM information_schema.columns WHERE table_name = $1 AND column_name <> 'seq' OR (table_name = $1 AND column_name = 'seq' AND $1 IN ('job_events', 'job_logs'))",
          [table],
        );
        const byName = new Map(actual.rows.map((c) => [c.column_name, c]));
        expect([...byName.keys()].sort(), table).toEqual(expected.map((c) => c.name).sort());
        for (const column of expected) {
          const got = byName.get(column.name)!;
          expect(TYPES[column.type], `${table}.${column.name} ${column.type}`).toContain(got.data_type);
          // SQLite lets a non-INTEGER primary key hold NULL; PostgreSQL never does.
          const notNull = column.notnull === 1 || column.pk > 0;
          expect(got.is_nullable === "NO", `${table}.${column.name} NOT NULL`).toBe(notNull);
        }
      }
      sqlite.close();
    } finally {
      await pool.end();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("applies each step once when two replicas migrate at the same moment, and nothing on a restart", async () => {
    const url = await pgc.fresh();
    const pools = [new pg.Pool({ connectionString: url }), new pg.Pool({ connectionString: url })];
    try {
      const applied = await Promise.all(pools.map((p) => migratePg(p)));
      const all = PG_MIGRATIONS.map((_, i) => i + 1);
      // One of them did all the work, the other waited on the lock and found it done.
      expect(applied.map((a) => a.length).sort()).toEqual([0, all.length]);
      expect(applied.flat()).toEqual(all);
      expect(await migratePg(pools[0]!)).toEqual([]);
      const recorded = await pools[0]!.query<{ version: number }>(
        "SELECT version FROM schema_migrations ORDER BY version",
      );
      expect(recorded.rows.map((r) => r.version)).toEqual(all);
    } finally {
      await Promise.all(pools.map((p) => p.end()));
    }
  });

  it("opens two stores at once on a new database: both work, and they share one instance secret", async () => {
    const url = await pgc.fresh();
    const [a, b] = await Promise.all([pgc.open(url), pgc.open(url)]);
    const secretA = await a.instanceSecret();
    expect(secretA).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await b.instanceSecret()).toBe(secretA);
    const { model_id } = await a.apps.createModel("shared");
    expect(await b.apps.modelExists(model_id)).toBe(true);
    // A third store, opened later, reads the same secret: it is made once per database.
    expect(await (await pgc.open(url)).instanceSecret()).toBe(secretA);
  });
});
