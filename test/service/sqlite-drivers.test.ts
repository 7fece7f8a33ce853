/**
 * The store's SQLite connection behaves the same on each driver this runtime loads:
 * WAL and busy timeout, BEGIN IMMEDIATE writes that roll back on throw, savepoints,
 * the synchronous FULL/NORMAL split, statements prepared once, integers as numbers.
 * Real database files in temp dirs; a second connection plays the other process.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { ServiceStarter } from "../harness/service-starter.js";
import {
  DATABASE_FILE,
  metaValue,
  openDatabase,
  prepared,
  relaxedWrite,
  writeTransaction,
  type Db,
} from "../../src/server/store/sqlite/database.js";
import { MIGRATIONS } from "../../src/server/store/sqlite/migrations.js";
import {
  chooseSqliteDriver,
  openSqlite,
  SQLITE_DRIVERS,
  sqliteDriverFromEnv,
  type SqliteDriverName,
} from "../../src/server/store/sqlite/sqlite.js";
import { STORE_DRIVERS } from "./sqlite-drivers.js";

/** Every service here is closed by its test; cleanup() is the backstop. */
const starter = new ServiceStarter();
afterAll(() => starter.cleanup());

const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
const isDeno = "Deno" in globalThis;

describe("the drivers this runtime loads", () => {
  it("include the one mdps picks here: node:sqlite from Node 22.13 and in Deno, better-sqlite3 on Node 20", () => {
    // Not a skip condition: a driver that fails to load here must fail this test.
    const expected: SqliteDriverName =
      isDeno || major > 22 || (major === 22 && minor >= 13) ? "node-sqlite" : "better-sqlite3";
    expect(STORE_DRIVERS).toContain(expected);
    expect(chooseSqliteDriver()).toBe(STORE_DRIVERS[0]);
  });

  it("a forced driver comes from the option, else MDPS_SQLITE_DRIVER; a wrong name says which are valid", () => {
    expect(sqliteDriverFromEnv({})).toBeUndefined();
    expect(sqliteDriverFromEnv({ MDPS_SQLITE_DRIVER: " better-sqlite3 " })).toBe("better-sqlite3");
    expect(() => sqliteDriverFromEnv({ MDPS_SQLITE_DRIVER: "sqlite3" })).toThrow(
      'MDPS_SQLITE_DRIVER must be one of node-sqlite, better-sqlite3 (or unset to choose automatically), got "sqlite3".',
    );
    expect(() => chooseSqliteDriver("sqlite" as SqliteDriverName)).toThrow(/sqliteDriver must be one of/);
  });

  const unavailable = SQLITE_DRIVERS.filter((d) => !STORE_DRIVERS.includes(d));
  it.skipIf(unavailable.length === 0)(
    `a driver that does not load here is an error when asked for, never a fallback (${unavailable.join(", ")})`,
    () => {
      const dir = mkdtempSync(join(tmpdir(), "mdps-sqlite-"));
      try {
        for (const driver of unavailable) {
          expect(() => openDatabase(dir, { driver })).toThrow(
            new RegExp(
              `^The SQLite driver ${driver} was asked for \\(the sqliteDriver option\\) but cannot be used on`,
            ),
          );
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

describe.each(STORE_DRIVERS)("the store's SQLite on %s", (driver) => {
  let dir: string;
  let db: Db;
  const other: Db[] = [];
  /** Another connection to the same file, as another process would have. */
  const second = (busyTimeoutMs: number): Db => {
    const conn = openSqlite(join(dir, DATABASE_FILE), { driver });
    conn.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
    other.push(conn);
    return conn;
  };
  const count = (conn: Db, key: string) =>
    (conn.prepare("SELECT COUNT(*) AS n FROM meta WHERE key = ?").get(key) as { n: number }).n;
  const insert = (conn: Db, key: string) => prepared(conn, "INSERT INTO meta (key, value) VALUES (?, 'v')").run(key);
  const pragma = (conn: Db, name: string): unknown => Object.values(conn.prepare(`PRAGMA ${name}`).get() as object)[0];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "mdps-sqlite-"));
    db = openDatabase(dir, { driver });
  });
  afterEach(() => {
    for (const conn of other.splice(0)) conn.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("opens with WAL, a 10 s busy timeout, foreign keys, synchronous FULL and every migration", () => {
    expect(db.driver).toBe(driver);
    expect(pragma(db, "journal_mode")).toBe("wal");
    expect(pragma(db, "busy_timeout")).toBe(10_000);
    expect(pragma(db, "foreign_keys")).toBe(1);
    expect(pragma(db, "synchronous")).toBe(2); // FULL
    expect(pragma(db, "user_version")).toBe(MIGRATIONS.length);
    // Opening again migrates nothing and keeps the instance secret.
    const secret = metaValue(db, "instance_secret", () => "new");
    const again = openDatabase(dir, { driver });
    other.push(again);
    expect(metaValue(again, "instance_secret", () => "other")).toBe(secret);
    expect(() =>
      db.prepare("INSERT INTO applications VALUES ('c', 'no-such-model', 'n', '', '', '', '')").run(),
    ).toThrow(/FOREIGN KEY/);
  });

  it("commits a write transaction, and rolls all of it back when its function throws", () => {
    expect(writeTransaction(db, () => insert(db, "kept").changes)).toBe(1);
    expect(() =>
      writeTransaction(db, () => {
        insert(db, "undone");
        expect(db.inTransaction).toBe(true);
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(db.inTransaction).toBe(false);
    expect(count(db, "kept")).toBe(1);
    expect(count(db, "undone")).toBe(0);
    // A failed statement inside rolls back too, and the connection is usable after.
    expect(() =>
      writeTransaction(db, () => {
        insert(db, "twice");
        insert(db, "twice");
      }),
    ).toThrow(/UNIQUE/);
    expect(count(db, "twice")).toBe(0);
    insert(db, "after");
    expect(count(db, "after")).toBe(1);
  });

  it("nests as a savepoint: an inner throw caught inside undoes only the inner part", () => {
    writeTransaction(db, () => {
      insert(db, "outer");
      expect(() =>
        writeTransaction(db, () => {
          insert(db, "inner");
          throw new Error("inner");
        }),
      ).toThrow("inner");
      expect(db.inTransaction).toBe(true);
      writeTransaction(db, () => insert(db, "inner-kept"));
    });
    expect([count(db, "outer"), count(db, "inner"), count(db, "inner-kept")]).toEqual([1, 0, 1]);
  });

  it("refuses a function that returns a promise, and rolls its writes back", () => {
    expect(() =>
      writeTransaction(db, () => {
        insert(db, "async");
        return Promise.resolve();
      }),
    ).toThrow(/synchronous/);
    expect(count(db, "async")).toBe(0);
    expect(db.inTransaction).toBe(false);
  });

  it("takes the write lock at BEGIN (IMMEDIATE), so a transaction that only read yet still excludes other writers", () => {
    const b = second(50);
    writeTransaction(db, () => {
      expect(count(db, "x")).toBe(0); // only a read so far
      expect(() => writeTransaction(b, () => insert(b, "b"))).toThrow(/locked|busy/i);
      // WAL: a reader is never blocked by the writer, and sees the last commit.
      expect(count(b, "instance_secret")).toBe(1);
      insert(db, "a");
      expect(count(b, "a")).toBe(0);
    });
    expect(count(b, "a")).toBe(1);
    expect(b.inTransaction).toBe(false);
  });

  it("relaxedWrite commits under synchronous NORMAL and puts FULL back, also after a throw; inside a transaction it joins it", () => {
    const seen: unknown[] = [];
    relaxedWrite(db, () => {
      seen.push(pragma(db, "synchronous"));
      insert(db, "relaxed");
    });
    expect(() =>
      relaxedWrite(db, () => {
        throw new Error("x");
      }),
    ).toThrow("x");
    expect(pragma(db, "synchronous")).toBe(2);
    writeTransaction(db, () => {
      relaxedWrite(db, () => {
        seen.push(pragma(db, "synchronous"));
        insert(db, "joined");
      });
    });
    expect(seen).toEqual([1, 2]); // NORMAL, then the outer transaction's FULL
    expect([count(db, "relaxed"), count(db, "joined")]).toEqual([1, 1]);
  });

  it("prepares a statement once per connection", () => {
    const sql = "SELECT value FROM meta WHERE key = ?";
    expect(prepared(db, sql)).toBe(prepared(db, sql));
    expect(prepared(second(0), sql)).not.toBe(prepared(db, sql));
  });

  it("binds numbers, bigints, strings, null and undefined (as NULL), named or positional, and reads integers as numbers", () => {
    db.exec("CREATE TABLE t (i INTEGER, s TEXT, r REAL)");
    const put = db.prepare("INSERT INTO t (i, s, r) VALUES (?, ?, ?)");
    // A millisecond timestamp is past 32 bits; 2^53 - 1 is the largest integer read exactly.
    expect(put.run(1_764_200_000_000, "ms", 0.5).changes).toBe(1);
    put.run(9_007_199_254_740_991n, undefined, null);
    db.prepare("INSERT INTO t (i, s) VALUES (@i, @s)").run({ i: 7, s: undefined });
    const rows = db.prepare("SELECT i, s, r FROM t ORDER BY rowid").all();
    expect(rows).toEqual([
      { i: 1_764_200_000_000, s: "ms", r: 0.5 },
      { i: Number.MAX_SAFE_INTEGER, s: null, r: null },
      { i: 7, s: null, r: null },
    ]);
    // Named parameters the SQL does not use are ignored (prune binds one object to several statements).
    expect(db.prepare("SELECT s FROM t WHERE i = @i").get({ i: 1_764_200_000_000, unused: "x" })).toEqual({ s: "ms" });
    expect(db.prepare("DELETE FROM t WHERE i < ?").run(100).changes).toBe(1);
    expect(db.prepare("SELECT i FROM t WHERE i = ?").get(-1)).toBeUndefined();
  });
});

describe.each(STORE_DRIVERS)("a service on %s", (driver) => {
  it("names its SQLite driver in the startup log", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mdps-sqlite-"));
    const lines: string[] = [];
    const service = await starter.start({
      dataDir: dir,
      jobWorkers: 1,
      sqliteDriver: driver,
      logger: true,
      logDestination: { write: (line: string) => lines.push(line) },
    });
    await service.close();
    rmSync(dir, { recursive: true, force: true });
    const opened = lines
      .map((l) => JSON.parse(l) as { msg?: string; sqliteDriver?: string })
      .find((l) => l.msg === "store opened");
    expect(opened?.sqliteDriver).toBe(driver);
  });
});

describe.runIf(STORE_DRIVERS.includes("node-sqlite"))("node:sqlite in a process of its own", () => {
  it("prints no ExperimentalWarning", () => {
    const dir = mkdtempSync(join(tmpdir(), "mdps-sqlite-"));
    try {
      const script = `import { openDatabase } from ${JSON.stringify(new URL("../../src/server/store/sqlite/database.ts", import.meta.url).href)};
        const db = openDatabase(${JSON.stringify(dir)}, { driver: "node-sqlite" });
        console.log(db.driver); db.close();`;
      const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
        encoding: "utf8",
      });
      expect(run.stderr).toBe("");
      expect(run.stdout.trim()).toBe("node-sqlite");
      expect(run.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
