/**
 * A Session job on a Parquet file against the reference service, which declares
 * `parquet`: the file goes up as it is, the job reads and writes Parquet, and the output
 * keeps every passthrough column's type. Expected values are DuckDB's.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JOB_INPUT_QUERY, closeTo, openDuckDb, standardScaledQuery, type DuckDb } from "../formats/parquet-duckdb.js";
import { tempDir, useLocalSession } from "./session-fixture.js";

const session = useLocalSession();
let db: DuckDb | undefined;
let dir: ReturnType<typeof tempDir> | undefined;

function opened(): { db: DuckDb; path: (name: string) => string } {
  if (db === undefined || dir === undefined) throw new Error("beforeAll did not finish");
  const base = dir.path;
  return { db, path: (name) => join(base, name) };
}

beforeAll(async () => {
  db = await openDuckDb();
  dir = tempDir("mdps-parquet-jobs-");
  await db.connection.run(`COPY (${JOB_INPUT_QUERY}) TO '${join(dir.path, "input.parquet")}' (FORMAT parquet)`);
});
afterAll(() => {
  db?.close();
  dir?.remove();
});

describe("a Parquet file against the reference service (capability declared)", () => {
  it("a pipeline fitted on a Parquet file uploads it as it is, too", async () => {
    const { path } = opened();
    const notices: string[] = [];
    const stop = session().onNotice((m) => notices.push(m));
    try {
      const fitted = await session()
        .pipeline([{ type: "StandardScaler", columns: ["x", "y"] }])
        .fit(path("input.parquet"), { progress: "none" });
      expect(notices.filter((n) => n.includes("Parquet"))).toEqual([]);
      const input = session()
        .blobs()
        .find((b) => b.id === fitted.jobs[0]?.input?.id);
      expect(input?.recordType).toBe("parquet");
    } finally {
      stop();
    }
  });

  it("uploads the file as Parquet, and the job's Parquet output keeps every passthrough column", async () => {
    const { db, path } = opened();
    expect((await session().health()).capabilities).toContain("parquet");
    const notices: string[] = [];
    const stop = session().onNotice((m) => notices.push(m));
    try {
      const job = await session().preprocess(path("input.parquet"), { type: "StandardScaler", columns: ["x", "y"] });
      await job.wait({ progress: "none" });
      expect(notices.filter((n) => n.includes("Parquet"))).toEqual([]);
      const [output] = await job.outputs();
      expect(output?.recordType).toBe("parquet");
      expect(output?.name).toBe("input-StandardScaler");
      expect(output?.record.content_type).toBe("application/vnd.apache.parquet");

      const file = await job.download(path("scaled.parquet"));
      expect(file).toMatchObject({ recordType: "parquet", copied: true });
      const types = await db.columns(`SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM '${file.path}')`);
      expect(types["column_type"]).toEqual([
        "INTEGER",
        "DOUBLE",
        "DOUBLE",
        "VARCHAR",
        "DATE",
        "DECIMAL(12,2)",
        "BIGINT",
      ]);

      const input = path("input.parquet");
      const passthrough = (f: string) => `SELECT n, name, day, amount, big FROM read_parquet('${f}')`;
      const differing = await db.columns(
        `SELECT count(*) AS c FROM ((${passthrough(file.path)}) EXCEPT ALL (${passthrough(input)})) UNION ALL ` +
          `SELECT count(*) FROM ((${passthrough(input)}) EXCEPT ALL (${passthrough(file.path)}))`,
      );
      expect(differing["c"]).toEqual([0n, 0n]);
      const scaled = await db.columns(`SELECT x, y FROM read_parquet('${file.path}') ORDER BY n`);
      const golden = await db.columns(standardScaledQuery(input));
      expect(closeTo(scaled["x"] as Array<number | null>, golden["x"] ?? [])).toBe(true);
      expect(closeTo(scaled["y"] as Array<number | null>, golden["y"] ?? [])).toBe(true);

      // The same output as a DataFrame: features as numbers, passthrough as their text.
      const df = await job.dataframe();
      expect(closeTo(df.column("x").values as number[], golden["x"] ?? [])).toBe(true);
      const days = await db.columns(`SELECT strftime(day, '%Y-%m-%d') AS day FROM read_parquet('${input}') ORDER BY n`);
      expect(df.column("day").values).toEqual(days["day"]);
    } finally {
      stop();
    }
  });

  it("checks a Parquet file before a job: each passthrough column's dtype is its Parquet type", async () => {
    const { path } = opened();
    const report = await session().check(path("input.parquet"), { type: "StandardScaler", columns: ["x", "y"] });
    expect(report.problems).toEqual([]);
    const dtypes = Object.fromEntries(report.columns.map((c) => [c.name, c.dtype]));
    expect(dtypes).toMatchObject({ name: "BYTE_ARRAY (UTF8)", day: "INT32 (DATE)", amount: "DECIMAL(12,2)" });
  });

  it("writes a Parquet output when asked, from a CSV input", async () => {
    const { db, path } = opened();
    await db.connection.run(`COPY (${JOB_INPUT_QUERY}) TO '${path("input.csv")}' (FORMAT csv, HEADER)`);
    const job = await session().preprocess(path("input.csv"), {
      type: "StandardScaler",
      columns: ["x", "y"],
      outputs: { recordType: "parquet" },
    });
    const [output] = await job.outputs();
    expect(output?.recordType).toBe("parquet");
    const file = await job.download(path("from-csv.parquet"));
    expect(file.copied).toBe(true);
    const types = await db.columns(`SELECT column_type FROM (DESCRIBE SELECT * FROM '${file.path}')`);
    // From CSV a column whose every value is a number is numeric (n, amount), as pandas reads it;
    // text stays text, and integers beyond 2^53 (big) keep their exact digits as text.
    expect(types["column_type"]).toEqual(["DOUBLE", "DOUBLE", "DOUBLE", "VARCHAR", "VARCHAR", "DOUBLE", "VARCHAR"]);
    const kept = await db.columns(`SELECT n, amount, big FROM read_parquet('${file.path}') LIMIT 2`);
    expect(kept).toEqual({ n: [0, 1], amount: [0, 1.25], big: ["9007199254740993", "9007199254740994"] });
    const scaled = await db.columns(`SELECT x, y FROM read_parquet('${file.path}') ORDER BY n::INTEGER`);
    const golden = await db.columns(standardScaledQuery(path("input.parquet")));
    expect(closeTo(scaled["x"] as Array<number | null>, golden["x"] ?? [])).toBe(true);
    expect(closeTo(scaled["y"] as Array<number | null>, golden["y"] ?? [])).toBe(true);
  });

  it("uploads a Parquet file with session.upload as record type parquet", async () => {
    const { path } = opened();
    const blob = await session().upload(path("input.parquet"));
    expect(blob.recordType).toBe("parquet");
    expect(blob.name).toBe("input.parquet");
    const table = await blob.table();
    expect(table.rowCount).toBe(200);
  });
});
