/**
 * Parquet against another implementation: DuckDB writes files of every type (three
 * codecs, several row groups, nulls in every column) that readParquet must read exactly,
 * and reads back exactly what writeParquet writes. Every expected value is computed by
 * DuckDB in the test.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataFrameFromTable, tableFromDataFrame } from "../../src/core/formats/danfo.js";
import {
  FormatError,
  readTable,
  replaceColumns,
  writeTable,
  type Column,
  type Table,
} from "../../src/core/formats/index.js";
import { readParquet, writeParquet } from "../../src/core/formats/parquet.js";
import { everyTypeQuery, EVERY_TYPE, openDuckDb, type DuckDb } from "./parquet-duckdb.js";

const ROWS = 10_000;
const CODECS = ["snappy", "zstd", "gzip"] as const;

let db: DuckDb | undefined;
let dir: string | undefined;
const files: Record<string, string> = {};

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts);
}

function column(table: Table, name: string): Column {
  const found = table.columns.find((c) => c.name === name);
  if (found === undefined) throw new Error(`no column ${name}`);
  return found;
}

/** DuckDB's values of `exprs` over `file`, in row order. */
async function expected(file: string, exprs: Record<string, string>): Promise<Record<string, unknown[]>> {
  const select = Object.entries(exprs)
    .map(([name, expr]) => `${expr} AS "${name}"`)
    .join(", ");
  return duck().columns(`SELECT ${select} FROM read_parquet('${file}')`);
}

const asDoubles = (values: unknown[]) => Float64Array.from(values, (v) => (v === null ? NaN : Number(v)));
const sameDoubles = (a: ArrayLike<number>, b: ArrayLike<number>) =>
  a.length === b.length && Array.from(a).every((x, i) => Object.is(x, b[i]));

beforeAll(async () => {
  db = await openDuckDb();
  dir = mkdtempSync(join(tmpdir(), "mdps-parquet-"));
  for (const codec of CODECS) {
    files[codec] = join(dir, `every-type-${codec}.parquet`);
    await duck().connection.run(
      `COPY (${everyTypeQuery(ROWS)}) TO '${files[codec]}' (FORMAT parquet, COMPRESSION ${codec}, ROW_GROUP_SIZE 2048)`,
    );
  }
});

afterAll(() => {
  db?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

/** The DuckDB of beforeAll (it throws when beforeAll failed, so a test fails for the right reason). */
function duck(): DuckDb {
  if (db === undefined) throw new Error("DuckDB did not open");
  return db;
}

function tmp(name: string): string {
  if (dir === undefined) throw new Error("no temporary directory");
  return join(dir, name);
}

/** Every column of `file` (EVERY_TYPE but those `left out`) read exactly, as DuckDB reads it. */
async function expectEveryType(file: string, leftOut: readonly string[] = []): Promise<void> {
  const kept = (name: string) => !leftOut.includes(name);
  const table = await readParquet(readFileSync(file));
  expect(table.rowCount).toBe(ROWS);
  expect(table.columns.map((c) => c.name)).toEqual(EVERY_TYPE.map(([name]) => name).filter(kept));

  // Integers of every width and floats are number columns, nulls NaN.
  const numbers = ["i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f32", "f64"].filter(kept);
  const want = await expected(file, Object.fromEntries(numbers.map((n) => [n, `"${n}"::DOUBLE`])));
  for (const name of numbers) {
    const c = column(table, name);
    expect(c.kind, name).toBe("number");
    expect(sameDoubles(c.values as Float64Array, asDoubles(want[name] ?? [])), name).toBe(true);
  }
  // 64-bit integers keep their stored values for writing back.
  const stored = await expected(file, { i64: "i64", u64: "u64" });
  expect(column(table, "i64").parquet?.stored).toEqual(stored["i64"]);
  expect(column(table, "u64").parquet?.stored).toEqual(stored["u64"]);

  // Everything else is text as DuckDB spells it (ISO 8601 with a T for timestamps).
  const texts = await expected(file, {
    dec4: "dec4::VARCHAR",
    dec18: "dec18::VARCHAR",
    dec38: "dec38::VARCHAR",
    day: "strftime(day, '%Y-%m-%d')",
    ts: "strftime(ts, '%Y-%m-%dT%H:%M:%S.%f')",
    ts_ms: "strftime(ts_ms, '%Y-%m-%dT%H:%M:%S.%g')",
    ts_ns: "strftime(ts_ns, '%Y-%m-%dT%H:%M:%S.%n')",
    ts_utc: "strftime(make_timestamp(epoch_us(ts_utc)), '%Y-%m-%dT%H:%M:%S.%f') || 'Z'",
    clock: "strftime(DATE '2000-01-01' + clock, '%H:%M:%S.%f')",
    txt: "txt",
    blob_text: "decode(blob_text)",
    blob_bytes: "base64(blob_bytes)",
    id: "id::VARCHAR",
    doc: "doc::VARCHAR",
    // Beyond 2^53 a double would round them: their exact text instead.
    i64_wide: "i64_wide::VARCHAR",
    u64_wide: "u64_wide::VARCHAR",
  });
  for (const [name, values] of Object.entries(texts)) {
    const c = column(table, name);
    expect(c.kind, name).toBe("string");
    expect(c.values, name).toEqual(values);
  }
  const flags = await expected(file, { flag: "flag" });
  expect(column(table, "flag").values).toEqual(flags["flag"]);

  // Lists, structs and maps pass through; their text is JSON of the values.
  const nested = await expected(file, { list: "to_json(list)", struct: "to_json(struct)", map: "to_json(map)" });
  for (const [name, values] of Object.entries(nested)) {
    const text = column(table, name).values as ReadonlyArray<string | null>;
    const mine = text.map((v) => (v === null ? null : (JSON.parse(v) as unknown)));
    expect(mine, name).toEqual(values.map((v) => (v === null ? null : (JSON.parse(v as string) as unknown))));
  }
}

describe("readParquet on files DuckDB writes", () => {
  it("the fixtures hold several row groups and the codecs asked for", async () => {
    for (const codec of CODECS) {
      const meta = await duck().columns(
        `SELECT count(DISTINCT row_group_id) AS groups, list(DISTINCT compression) AS codecs FROM parquet_metadata('${files[codec]}')`,
      );
      expect(Number(meta["groups"]?.[0])).toBeGreaterThan(1);
      expect(meta["codecs"]?.[0]).toEqual([codec.toUpperCase()]);
    }
  });

  it.each(CODECS)("reads every type exactly (%s)", async (codec) => {
    await expectEveryType(files[codec] as string);
  });

  it("names each column's Parquet type", async () => {
    const table = await readParquet(readFileSync(files["snappy"] as string));
    const types = Object.fromEntries(table.columns.map((c) => [c.name, c.parquet?.typeName]));
    expect(types).toMatchObject({
      i8: "INT32 (INT_8)",
      u64_wide: "INT64 (UINT_64)",
      dec38: "DECIMAL(38,10)",
      ts_utc: "TIMESTAMP(MICROS, UTC)",
      doc: "BYTE_ARRAY (JSON)",
      list: "LIST",
    });
  });

  it("reads a stream of chunks as it reads bytes", async () => {
    const bytes = readFileSync(files["zstd"] as string);
    function* pieces() {
      for (let at = 0; at < bytes.length; at += 4096) yield bytes.subarray(at, at + 4096);
    }
    const streamed = await readTable("parquet", Readable.from(pieces()));
    const whole = await readParquet(bytes);
    expect(streamed.columns.map((c) => c.values)).toEqual(whole.columns.map((c) => c.values));
  });

  it("reads version 2 data pages (DELTA_BINARY_PACKED integers), and refuses the unsigned 32-bit ones hyparquet misreads", async () => {
    const v2 = tmp("every-type-v2.parquet");
    await duck().connection.run(
      `COPY (SELECT * EXCLUDE (u32) FROM (${everyTypeQuery(ROWS)})) TO '${v2}' (FORMAT parquet, PARQUET_VERSION v2)`,
    );
    const encodings = await duck().columns(
      `SELECT list(DISTINCT e) AS e FROM (SELECT unnest(string_split(encodings, ', ')) AS e FROM parquet_metadata('${v2}'))`,
    );
    expect(encodings["e"]?.[0]).toContain("DELTA_BINARY_PACKED");
    await expectEveryType(v2, ["u32"]);

    const u32 = tmp("u32-v2.parquet");
    await duck().connection.run(
      `COPY (SELECT (4294967295 - i)::UINTEGER AS u32 FROM range(10) t(i)) TO '${u32}' (FORMAT parquet, PARQUET_VERSION v2)`,
    );
    await expect(readParquet(readFileSync(u32))).rejects.toThrow(
      /column "u32" holds unsigned 32-bit integers in DELTA_BINARY_PACKED/,
    );
  });

  it("reads REQUIRED columns (no nulls declared) and writes them back REQUIRED, as DuckDB reads them", async () => {
    // DuckDB writes every column OPTIONAL; hyparquet-writer writes these REQUIRED ones.
    const { ByteWriter, parquetWrite } = await import("hyparquet-writer");
    const writer = new ByteWriter();
    const ints = Int32Array.from({ length: 3000 }, (_, i) => i * 7 - 10_000);
    const doubles = Float64Array.from({ length: 3000 }, (_, i) => Math.cos(i) * 1e10);
    await parquetWrite({
      writer,
      columnData: [
        { name: "i", data: ints },
        { name: "d", data: doubles },
      ],
      schema: [
        { name: "root", num_children: 2 },
        { name: "i", type: "INT32", repetition_type: "REQUIRED" },
        { name: "d", type: "DOUBLE", repetition_type: "REQUIRED" },
      ],
    });
    const table = await readParquet(writer.getBytes());
    expect(sameDoubles(column(table, "i").values as Float64Array, Float64Array.from(ints))).toBe(true);
    expect(sameDoubles(column(table, "d").values as Float64Array, doubles)).toBe(true);
    const out = tmp("required.parquet");
    writeFileSync(out, await collect(writeParquet(table)));
    const schema = await duck().columns(
      `SELECT name, repetition_type FROM parquet_schema('${out}') WHERE name IN ('i', 'd')`,
    );
    expect(schema["repetition_type"]).toEqual(["REQUIRED", "REQUIRED"]);
    const back = await duck().columns(`SELECT i, d FROM '${out}'`);
    expect(back["i"]).toEqual(Array.from(ints));
    expect(sameDoubles(asDoubles(back["d"] ?? []), doubles)).toBe(true);
  });

  it("says what is wrong with bytes that are not Parquet", async () => {
    await expect(readParquet("a,b\n1,2\n")).rejects.toThrow(FormatError);
    await expect(readParquet("a,b\n1,2\n")).rejects.toThrow(/not a readable Parquet file/);
    const cut = readFileSync(files["snappy"] as string).subarray(0, 5000);
    await expect(readParquet(cut)).rejects.toThrow(FormatError);
  });
});

describe("writeParquet, read back by DuckDB", () => {
  it.each(CODECS)("gives back every column of a %s file unchanged: types, values, nulls", async (codec) => {
    const file = files[codec] as string;
    const out = tmp(`back-${codec}.parquet`);
    writeFileSync(out, await collect(writeParquet(await readParquet(readFileSync(file)))));
    const types = (f: string) => duck().columns(`SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM '${f}')`);
    expect(await types(out)).toEqual(await types(file));
    // Row by row, in order (EXCEPT alone would miss a reordering or a duplicate).
    const numbered = (f: string) => `SELECT row_number() OVER () AS n, * FROM read_parquet('${f}')`;
    const differing = await duck().columns(
      `SELECT count(*) AS c FROM ((${numbered(out)}) EXCEPT ALL (${numbered(file)})) UNION ALL ` +
        `SELECT count(*) FROM ((${numbered(file)}) EXCEPT ALL (${numbered(out)}))`,
    );
    expect(differing["c"]).toEqual([0n, 0n]);
    const rows = await duck().columns(`SELECT count(*) AS c FROM '${out}'`);
    expect(rows["c"]).toEqual([BigInt(ROWS)]);
  });

  it("writes a transformed column as DOUBLE and keeps the others' types", async () => {
    const table = await readParquet(readFileSync(files["snappy"] as string));
    const scaled = Float64Array.from(column(table, "i32").values as Float64Array, (x) => x / 3);
    const out = tmp("transformed.parquet");
    writeFileSync(out, await collect(writeParquet(replaceColumns(table, ["i32"], [scaled]))));
    const described = await duck().columns(`SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM '${out}')`);
    const typeOf = (n: string) => described["column_type"]?.[described["column_name"]?.indexOf(n) ?? -1];
    expect(typeOf("i32")).toBe("DOUBLE");
    expect(typeOf("i16")).toBe("SMALLINT");
    expect(typeOf("dec38")).toBe("DECIMAL(38,10)");
    const back = await duck().columns(`SELECT i32 FROM '${out}'`);
    expect(sameDoubles(asDoubles(back["i32"] ?? []), scaled)).toBe(true);
  });

  it("writes mdps's own columns as DOUBLE, VARCHAR and BOOLEAN, every double bit for bit, missing as NULL", async () => {
    const hard = Float64Array.from([
      0.1,
      -0,
      5e-324,
      1.7976931348623157e308,
      Infinity,
      -Infinity,
      NaN,
      0.30000000000000004,
      -123456789.98765433,
      2 ** 53 + 2,
    ]);
    const n = hard.length;
    const table: Table = {
      rowCount: n,
      columns: [
        { name: "x", kind: "number", values: hard },
        { name: "whole", kind: "number", values: Float64Array.from(hard, (v) => (Number.isNaN(v) ? 1 : v)) },
        { name: "t", kind: "string", values: Array.from({ length: n }, (_, i) => (i === 2 ? null : `ü,"${i}"\n`)) },
        { name: "b", kind: "boolean", values: Array.from({ length: n }, (_, i) => (i === 4 ? null : i % 2 === 0)) },
      ],
    };
    const out = tmp("own.parquet");
    writeFileSync(out, await collect(writeParquet(table)));
    const described = await duck().columns(`SELECT column_type FROM (DESCRIBE SELECT * FROM '${out}')`);
    expect(described["column_type"]).toEqual(["DOUBLE", "DOUBLE", "VARCHAR", "BOOLEAN"]);
    const back = await duck().columns(`SELECT x, x IS NULL AS missing, whole, t, b FROM '${out}'`);
    expect(back["missing"]).toEqual(Array.from(hard, (v) => Number.isNaN(v)));
    expect(sameDoubles(asDoubles(back["x"] ?? []), hard)).toBe(true);
    expect(sameDoubles(asDoubles(back["whole"] ?? []), table.columns[1]?.values as Float64Array)).toBe(true);
    expect(back["t"]).toEqual(table.columns[2]?.values);
    expect(back["b"]).toEqual(table.columns[3]?.values);
  });

  it("writes large tables a row group at a time, handing out each as it is written", async () => {
    const rows = 250_001;
    const x = Float64Array.from({ length: rows }, (_, i) => (i % 1000 === 7 ? NaN : Math.sin(i) * 1e6));
    const t = Array.from({ length: rows }, (_, i) => (i % 999 === 0 ? null : `t${i}`));
    const table: Table = {
      rowCount: rows,
      columns: [
        { name: "x", kind: "number", values: x },
        { name: "t", kind: "string", values: t },
      ],
    };
    const chunks: Uint8Array[] = [];
    for await (const chunk of writeParquet(table)) chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(3);
    const out = tmp("large.parquet");
    writeFileSync(out, Buffer.concat(chunks));
    const groups = await duck().columns(`SELECT count(DISTINCT row_group_id) AS g FROM parquet_metadata('${out}')`);
    expect(groups["g"]).toEqual([3n]);
    const back = await duck().columns(`SELECT x, t FROM '${out}'`);
    expect(sameDoubles(asDoubles(back["x"] ?? []), x)).toBe(true);
    expect(back["t"]).toEqual(t);
  });

  it("writes an empty table DuckDB reads with its columns", async () => {
    const out = tmp("empty.parquet");
    const empty: Table = { rowCount: 0, columns: [{ name: "x", kind: "number", values: new Float64Array(0) }] };
    writeFileSync(out, await collect(writeParquet(empty)));
    const back = await duck().columns(`SELECT count(*) AS c FROM '${out}'`);
    expect(back["c"]).toEqual([0n]);
    expect((await readParquet(readFileSync(out))).columns.map((c) => c.name)).toEqual(["x"]);
  });
});

describe("Parquet and the other formats", () => {
  it("converts to and from danfo DataFrames, and passed-through columns go to CSV as their text", async () => {
    const table = await readParquet(readFileSync(files["snappy"] as string));
    const df = dataFrameFromTable(table);
    expect(df.shape).toEqual([ROWS, EVERY_TYPE.length]);
    const again = tableFromDataFrame(df);
    expect(sameDoubles(again.columns[3]?.values as Float64Array, column(table, "i64").values as Float64Array)).toBe(
      true,
    );
    const csv = await readTable("csv", await collect(writeTable("csv", table)), {
      numericColumns: ["f64"],
    });
    // DECIMAL(38,10)'s exact text is a float64 to pandas.read_csv, and so to mdps's CSV reader.
    const decimals = column(table, "dec38").values as (string | null)[];
    expect(Array.from(column(csv, "dec38").values as Float64Array)).toEqual(
      decimals.map((d) => (d === null ? NaN : Number(d))),
    );
    expect(column(csv, "ts_ns").values).toEqual(column(table, "ts_ns").values);
    // And a DataFrame written as Parquet is what DuckDB reads.
    const out = tmp("frame.parquet");
    writeFileSync(out, await collect(writeParquet(tableFromDataFrame(df))));
    const back = await duck().columns(`SELECT f64 FROM '${out}'`);
    expect(sameDoubles(asDoubles(back["f64"] ?? []), column(table, "f64").values as Float64Array)).toBe(true);
  });
});
