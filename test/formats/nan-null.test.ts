/**
 * NaN and NULL are different values in Parquet and Arrow: a number column that passes
 * through a job (read, other columns transformed, written) keeps each where it was. In a
 * feature column both are missing values; the transformed column writes them as NULL.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  Float32,
  Float64,
  makeData,
  makeVector,
  Table as ArrowTable,
  tableFromIPC,
  tableToIPC,
  Field,
  Schema,
} from "apache-arrow";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readArrow, writeArrow } from "../../src/core/formats/arrow.js";
import { replaceColumns, selectFeatures } from "../../src/core/formats/index.js";
import { readParquet, writeParquet } from "../../src/core/formats/parquet.js";
import { collect } from "./byte-sources.js";
import { openDuckDb, type DuckDb } from "./parquet-duckdb.js";

let db: DuckDb | undefined;
let dir: string | undefined;

beforeAll(async () => {
  db = await openDuckDb();
  dir = mkdtempSync(join(tmpdir(), "mdps-nan-null-"));
});

afterAll(() => {
  db?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

function duck(): DuckDb {
  if (db === undefined) throw new Error("DuckDB did not open");
  return db;
}

/** Per row: "nan", "null", or the value; from DuckDB's reading of `file`. */
async function cells(file: string, column: string): Promise<unknown[]> {
  const out = await duck().columns(
    `SELECT CASE WHEN "${column}" IS NULL THEN 'null' WHEN isnan("${column}") THEN 'nan' ELSE "${column}"::VARCHAR END AS v FROM read_parquet('${file}')`,
  );
  return out["v"] ?? [];
}

describe("Parquet passthrough keeps NaN and NULL apart", () => {
  it("DOUBLE and FLOAT columns with 3 NaN and 3 NULL come back with 3 NaN and 3 NULL in the same rows", async () => {
    const input = join(dir as string, "in.parquet");
    const output = join(dir as string, "out.parquet");
    await duck().connection.run(
      `COPY (SELECT i::DOUBLE AS x,
         CASE WHEN i IN (1, 4, 7) THEN 'NaN'::DOUBLE WHEN i IN (2, 5, 8) THEN NULL ELSE i / 4 END AS kept,
         CASE WHEN i IN (0, 3) THEN 'NaN'::FLOAT WHEN i IN (6, 9, 10) THEN NULL ELSE (i * 1.5)::FLOAT END AS kept32,
         CASE WHEN i = 3 THEN NULL ELSE i * 2.5 END::DOUBLE AS nulls_only
       FROM range(12) t(i)) TO '${input}' (FORMAT parquet)`,
    );
    const table = await readParquet(readFileSync(input));
    // A feature column is transformed; the others pass through.
    const features = selectFeatures(table, ["x"]);
    const doubled = features.columns.map((c) => c.map((v) => 2 * v));
    writeFileSync(output, await collect(writeParquet(replaceColumns(table, features.names, doubled))));
    for (const column of ["kept", "kept32", "nulls_only"]) {
      expect(await cells(output, column), column).toEqual(await cells(input, column));
    }
    const counts = await duck().columns(
      `SELECT count(*) FILTER (WHERE isnan(kept)) AS nan, count(*) FILTER (WHERE kept IS NULL) AS nulls FROM '${output}'`,
    );
    expect([counts["nan"], counts["nulls"]]).toEqual([[3n], [3n]]);
    const types = (f: string) => duck().columns(`SELECT column_type FROM (DESCRIBE SELECT * FROM '${f}')`);
    expect((await types(output))["column_type"]).toEqual(["DOUBLE", "DOUBLE", "FLOAT", "DOUBLE"]);
    expect((await types(input))["column_type"]).toEqual(["DOUBLE", "DOUBLE", "FLOAT", "DOUBLE"]);
  });

  it("in a feature column, NULL and NaN are both missing: NaN in the Float64Array, NULL in the transformed output", async () => {
    const input = join(dir as string, "feature.parquet");
    const output = join(dir as string, "feature-out.parquet");
    await duck().connection.run(
      `COPY (SELECT CASE WHEN i = 1 THEN 'NaN'::DOUBLE WHEN i = 2 THEN NULL ELSE i END AS f FROM range(4) t(i)) TO '${input}' (FORMAT parquet)`,
    );
    const table = await readParquet(readFileSync(input));
    const features = selectFeatures(table, ["f"]);
    expect(Array.from(features.columns[0] as Float64Array)).toEqual([0, NaN, NaN, 3]);
    const scaled = features.columns.map((c) => c.map((v) => v + 1));
    writeFileSync(output, await collect(writeParquet(replaceColumns(table, features.names, scaled))));
    expect(await cells(output, "f")).toEqual(["1.0", "null", "null", "4.0"]);
  });
});

describe("Arrow passthrough keeps NaN and null apart", () => {
  it.each([
    ["float64", new Float64(), Float64Array],
    ["float32", new Float32(), Float32Array],
  ] as const)("a %s column with NaN and nulls comes back with each where it was", async (_name, type, Values) => {
    const values = Values.from([1.5, NaN, 0, 2.5, NaN, 4]);
    // null at rows 2 and 3 (bits cleared), NaN stored at rows 1 and 4
    const nullBitmap = Uint8Array.of(0b110011);
    const kept = makeVector(makeData({ type, length: 6, nullCount: 2, nullBitmap, data: values }));
    const x = makeVector(Float64Array.from([1, 2, 3, 4, 5, 6]));
    const original = new ArrowTable(new Schema([new Field("x", new Float64(), false), new Field("kept", type, true)]), {
      x,
      kept,
    });
    const table = await readArrow(tableToIPC(original, "file"));
    const features = selectFeatures(table, ["x"]);
    const back = tableFromIPC(
      await collect(
        writeArrow(
          replaceColumns(
            table,
            features.names,
            features.columns.map((c) => c.map((v) => -v)),
          ),
        ),
      ),
    );
    const column = back.getChild("kept");
    const got = Array.from({ length: 6 }, (_, i): unknown => column?.get(i) as unknown);
    expect(got).toEqual([1.5, NaN, null, null, NaN, 4]);
    expect(column?.nullCount).toBe(2);
  });
});
