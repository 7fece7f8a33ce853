/** /load and /save with Parquet: a file DuckDB writes becomes a frame; a frame saved as Parquet is what DuckDB reads. */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCommand } from "../../../repl/commands/load.js";
import { saveCommand } from "../../../repl/commands/save.js";
import { openDuckDb, type DuckDb } from "../../formats/parquet-duckdb.js";
import { commandContext, openTestWorkspace, run, texts, type TestWorkspace } from "../fixtures.js";

let t: TestWorkspace | undefined;
let db: DuckDb | undefined;

function opened(): { t: TestWorkspace; db: DuckDb } {
  if (t === undefined || db === undefined) throw new Error("beforeAll did not finish");
  return { t, db };
}

beforeAll(async () => {
  t = await openTestWorkspace();
  db = await openDuckDb();
  await db.connection.run(
    `COPY (SELECT i::INTEGER AS id, CASE WHEN i = 2 THEN NULL ELSE i / 4 END AS x, 'r' || i AS label, ` +
      `DATE '2024-03-01' + i::INTEGER AS day FROM range(5) t(i)) TO '${join(t.dir, "visits.parquet")}' (FORMAT parquet, COMPRESSION zstd)`,
  );
});
afterAll(async () => {
  db?.close();
  await t?.close();
});

describe("/load and /save with Parquet", () => {
  it("loads a Parquet file: numbers, missing values, and dates as their text", async () => {
    const { t, db } = opened();
    const out = await run(loadCommand, commandContext(t.workspace), "visits.parquet");
    expect(texts(out).join("\n")).toContain("Loaded visits.parquet into frame visits: 5 rows × 4 columns.");
    const table = t.workspace.table("visits");
    const want = await db.columns(`SELECT x, strftime(day, '%Y-%m-%d') AS day FROM '${join(t.dir, "visits.parquet")}'`);
    expect(Array.from(table.columns[1]?.values as Float64Array)).toEqual(want["x"]?.map((v) => v ?? NaN));
    expect(table.columns[3]?.values).toEqual(want["day"]);
  });

  it("saves a frame as Parquet that DuckDB reads back, missing values as NULL", async () => {
    const { t, db } = opened();
    const ctx = commandContext(t.workspace);
    await run(loadCommand, ctx, "visits.parquet", "as", "v");
    const out = await run(saveCommand, ctx, "v", "copy.parquet");
    expect(texts(out)[0]).toMatch(/^Saved v to copy\.parquet \(parquet, 5 rows, \d+ B\)\.$/);
    const file = join(t.dir, "copy.parquet");
    const back = await db.columns(`SELECT x, x IS NULL AS missing, label FROM '${file}'`);
    const source = await db.columns(`SELECT x, x IS NULL AS missing, label FROM '${join(t.dir, "visits.parquet")}'`);
    expect(back).toEqual(source);
  });

  it("completes .parquet files", () => {
    const { t } = opened();
    const completion = t.workspace.completion(() => []);
    expect(loadCommand.complete?.(completion, [], "vis")).toEqual(["visits.parquet"]);
  });
});
