/**
 * Arrow columns of any type pass through unchanged when they are not feature columns
 * (as pandas and pyarrow write dates, timestamps, decimals, categories, lists); feature
 * columns take every integer and float type.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  DateMillisecond,
  Decimal,
  Dictionary,
  Field,
  Float32,
  Float64,
  Int32,
  Int64,
  List,
  Table as ArrowTable,
  TimestampMicrosecond,
  Uint8,
  Utf8,
  makeData,
  makeVector,
  tableFromIPC,
  tableToIPC,
  vectorFromArray,
} from "apache-arrow";
import { describe, expect, it } from "vitest";
import { readArrow, writeArrow } from "../../src/core/formats/arrow.js";
import { replaceColumns, selectFeatures } from "../../src/core/formats/index.js";
import { Session } from "../../src/index.js";
import { tempDir } from "../session/session-fixture.js";
import { collect } from "./byte-sources.js";

function sample(): ArrowTable {
  const decimal = makeVector(
    makeData({
      type: new Decimal(2, 10, 128),
      length: 3,
      nullCount: 0,
      // 123.45, 0.01, -0.01 as 128-bit little-endian two's complement words
      data: new Uint32Array([12345, 0, 0, 0, 1, 0, 0, 0, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff]),
    }),
  );
  return new ArrowTable({
    day: vectorFromArray(
      [new Date(Date.UTC(2024, 0, 2)), null, new Date(Date.UTC(1999, 11, 31))],
      new DateMillisecond(),
    ),
    at: vectorFromArray([1_700_000_000_000, 1_700_000_001_000, null], new TimestampMicrosecond()),
    price: decimal,
    kind: vectorFromArray(["red", "blue", "red"], new Dictionary(new Utf8(), new Int32())),
    tags: vectorFromArray([[1, 2], [3], null], new List(new Field("item", new Float64(), true))),
    count: vectorFromArray([1n, 2n, 3n], new Int64()),
    small: vectorFromArray([1, 2, 250], new Uint8()),
    x: vectorFromArray([1.5, 2.5, 4.5], new Float32()),
  });
}

const types = (t: ArrowTable) => t.schema.fields.map((f) => `${f.name}: ${String(f.type)}`);
const values = (t: ArrowTable, name: string) =>
  JSON.stringify(t.getChild(name)?.toArray(), (_, v: unknown) => (typeof v === "bigint" ? v.toString() : v));

describe("Arrow pass-through", () => {
  it("reads Date64, Timestamp, Decimal, Dictionary and List columns and writes them back unchanged", async () => {
    const original = sample();
    const table = await readArrow(tableToIPC(original, "file"));
    expect(table.columns.map((c) => [c.name, c.kind])).toEqual([
      ["day", "string"],
      ["at", "string"],
      ["price", "string"],
      ["kind", "string"],
      ["tags", "string"],
      ["count", "number"],
      ["small", "number"],
      ["x", "number"],
    ]);
    // Their text stands in for them in CSV, JSON and DataFrames.
    expect(table.columns[0]?.values).toEqual(["2024-01-02", null, "1999-12-31"]);
    expect(table.columns[2]?.values).toEqual(["123.45", "0.01", "-0.01"]);
    expect(table.columns[4]?.values).toEqual(["[1,2]", "[3]", null]);
    const back = tableFromIPC(await collect(writeArrow(table)));
    expect(types(back)).toEqual(types(original));
    for (const name of ["day", "at", "price", "kind", "tags", "count", "small"]) {
      expect(values(back, name), name).toBe(values(original, name));
    }
  });

  it("takes every integer and float type as a feature; a transformed column is written as float64", async () => {
    const table = await readArrow(tableToIPC(sample(), "file"));
    const features = selectFeatures(table, ["count", "small", "x"]);
    expect(features.columns.map((c) => Array.from(c))).toEqual([
      [1, 2, 3],
      [1, 2, 250],
      [1.5, 2.5, 4.5],
    ]);
    const doubled = features.columns.map((c) => c.map((v) => v * 2));
    const back = tableFromIPC(await collect(writeArrow(replaceColumns(table, features.names, doubled))));
    expect(String(back.schema.fields[5]?.type)).toBe("Float64");
    expect(Array.from(back.getChild("small")!.toArray() as Float64Array)).toEqual([2, 4, 500]);
    expect(String(back.schema.fields[0]?.type)).toBe("Date64<MILLISECOND>");
  });

  it("a job through the Session keeps the pass-through columns of an Arrow file unchanged", async () => {
    const dir = tempDir();
    const session = await Session.local({ dataDir: dir.path, service: { jobWorkers: 1 } });
    try {
      const path = join(dir.path, "sales.arrow");
      const original = sample();
      writeFileSync(path, tableToIPC(original, "file"));
      const job = await session.preprocess(path, { type: "StandardScaler", columns: ["x"] });
      await job.wait();
      const output = await (await job.outputs())[0]!.bytes();
      const back = tableFromIPC(output);
      expect(types(back).filter((t) => !t.startsWith("x:"))).toEqual(
        types(original).filter((t) => !t.startsWith("x:")),
      );
      for (const name of ["day", "at", "price", "kind", "tags", "count", "small"]) {
        expect(values(back, name), name).toBe(values(original, name));
      }
    } finally {
      await session.close();
      dir.remove();
    }
  });
});
