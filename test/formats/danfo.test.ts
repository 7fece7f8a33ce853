import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DataFrame, readCSV } from "danfojs-node";
import { describe, expect, it } from "vitest";
import { readCsv } from "../../src/core/formats/csv.js";
import { dataFrameFromTable, tableFromDataFrame } from "../../src/core/formats/danfo.js";
import { readTable, writeTable } from "../../src/core/formats/index.js";
import type { Table } from "../../src/core/formats/table.js";
import { collect, hardDoubles, numberColumn, sameDoubles, textColumn } from "./byte-sources.js";

describe("danfo conversion", () => {
  it("keeps float64 values exactly both ways (danfo's float32 label rounds nothing)", () => {
    const x = hardDoubles(10_000);
    const table: Table = { rowCount: x.length, columns: [{ name: "x", kind: "number", values: x }] };
    const df = dataFrameFromTable(table);
    expect(df.dtypes).toEqual(["float32"]);
    const fromColumn = Float64Array.from(df.column("x").values as number[]);
    expect(sameDoubles(fromColumn, x)).toBe(true);
    expect(sameDoubles(numberColumn(tableFromDataFrame(df), "x"), x)).toBe(true);
  });

  it("labels float64 data float32 because danfo 1.2.0 has no float64 dtype, and its frame methods still compute in float64", () => {
    // Why mdps cannot say float64 in df.dtypes: danfo's dtypes are a closed list that every
    // derived frame (head, loc, copy, a column) checks again, and its tensors (tfjs) have no float64.
    expect(() => new DataFrame({ a: [0.5] }, { dtypes: ["float64"] })).toThrow(/float64.*not supported/);
    const relabelled = dataFrameFromTable({
      rowCount: 1,
      columns: [{ name: "a", kind: "number", values: Float64Array.of(0.5) }],
    });
    (relabelled as unknown as { $dtypes: string[] }).$dtypes = ["float64"];
    expect(() => relabelled.head(1)).toThrow(/float64.*not supported/);
    // The label is only a label: the values danfo's own frame methods give stay float64.
    const v = [0.1, 1 / 3, 1 + 1e-10];
    const df = dataFrameFromTable({
      rowCount: 3,
      columns: [{ name: "a", kind: "number", values: Float64Array.from(v) }],
    });
    expect(df.dtypes).toEqual(["float32"]);
    expect(df.head(3).column("a").values).toEqual(v);
    expect(df.loc({ columns: ["a"] }).column("a").values).toEqual(v);
    expect(df.column("a").add(1).values).toEqual(v.map((x) => x + 1));
    expect(df.column("a").mul(df.column("a")).values).toEqual(v.map((x) => x * x));
    expect(Math.fround(v[1]!)).not.toBe(v[1]);
  });

  it("reads every danfo spelling of missing (NaN, null, undefined) as missing", () => {
    const df = new DataFrame({ n: [1, NaN, null, undefined, 2], s: ["a", null, undefined, "d", NaN] });
    const t = tableFromDataFrame(df);
    expect(Array.from(numberColumn(t, "n"))).toEqual([1, NaN, NaN, NaN, 2]);
    expect(textColumn(t, "s")).toEqual(["a", null, null, "d", null]);
  });

  it("writes missing numbers as NaN and missing text as null, and the frame works in danfo", () => {
    const table: Table = {
      rowCount: 3,
      columns: [
        { name: "x", kind: "number", values: new Float64Array([1.5, NaN, 2.5]) },
        { name: "label", kind: "string", values: ["a", null, ""] },
        { name: "ok", kind: "boolean", values: [true, null, false] },
      ],
    };
    const df = dataFrameFromTable(table);
    expect(df.shape).toEqual([3, 3]);
    expect(df.columns).toEqual(["x", "label", "ok"]);
    expect(df.dtypes).toEqual(["float32", "string", "boolean"]);
    expect(df.column("x").values).toEqual([1.5, NaN, 2.5]);
    expect(df.column("label").values).toEqual(["a", null, ""]);
    expect(df.values).toEqual([
      [1.5, "a", true],
      [NaN, null, null],
      [2.5, "", false],
    ]);
    expect(df.index).toEqual([0, 1, 2]);
    // danfo's own operations see a normal frame.
    expect((df.loc({ columns: ["x"] }).max({ axis: 0 }).values as number[])[0]).toBe(2.5);
    expect(df.iloc({ rows: [2] }).column("label").values).toEqual([""]);
    const copy = df.copy();
    expect(copy.column("x").values).toEqual([1.5, NaN, 2.5]);
  });

  it("restores int, boolean and string dtypes of text columns on request", async () => {
    const csv = "id,flag,x,code\n1,true,0.5,A007\n2,false,,A008\n,,1.5,\n";
    const table = await readCsv(csv, { numericColumns: ["x"] });
    const df = dataFrameFromTable(table, { dtypes: { id: "int32", flag: "boolean", code: "string" } });
    expect(df.dtypes).toEqual(["int32", "boolean", "float32", "string"]);
    expect(df.column("id").values).toEqual([1, 2, NaN]);
    expect(df.column("flag").values).toEqual([true, false, null]);
    expect(df.column("code").values).toEqual(["A007", "A008", null]);
    // Without dtypes, integer-valued numbers get danfo's int32 label.
    expect(dataFrameFromTable(await readCsv("a,b\n1,1.5\n2,2\n")).dtypes).toEqual(["int32", "float32"]);
  });

  it("a DataFrame survives every wire format unchanged", async () => {
    const n = 2_000;
    const x = hardDoubles(n);
    x[3] = NaN;
    const df = new DataFrame({
      x: Array.from(x),
      name: Array.from({ length: n }, (_, i) => (i % 7 === 0 ? null : `n,"${i}"\n`)),
    });
    for (const type of ["csv", "json", "arrow"] as const) {
      const bytes = await collect(writeTable(type, tableFromDataFrame(df)));
      const back = dataFrameFromTable(await readTable(type, bytes, { numericColumns: ["x"] }));
      expect(sameDoubles(Float64Array.from(back.column("x").values as number[]), x)).toBe(true);
      expect(back.column("name").values).toEqual(df.column("name").values);
    }
  });

  it("reads frames from danfo's readCSV, low-memory frames and frames changed in place", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mdps-danfo-"));
    try {
      const path = join(dir, "in.csv");
      writeFileSync(path, "x,label\n1.5,a\n,\n0.30000000000000004,c\n");
      const read = tableFromDataFrame(await readCSV(path));
      expect(Array.from(numberColumn(read, "x"))).toEqual([1.5, NaN, 0.30000000000000004]);
      expect(textColumn(read, "label")).toEqual(["a", null, "c"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const low = new DataFrame({ x: [1, 2, NaN] }, { config: { lowMemoryMode: true } });
    expect(Array.from(numberColumn(tableFromDataFrame(low), "x"))).toEqual([1, 2, NaN]);
    const changed = new DataFrame({ x: [3, NaN, 1], y: ["c", "b", "a"] });
    changed.fillNa(0, { columns: ["x"], inplace: true });
    changed.sortValues("x", { inplace: true });
    changed.addColumn("z", [true, false, null] as unknown as boolean[], { inplace: true });
    const t = tableFromDataFrame(changed);
    expect(Array.from(numberColumn(t, "x"))).toEqual([0, 1, 3]);
    expect(textColumn(t, "y")).toEqual(["b", "a", "c"]);
    expect(t.columns[2]?.values).toEqual([true, false, null]);
  });

  it("handles empty frames", () => {
    const df = dataFrameFromTable({
      rowCount: 0,
      columns: [{ name: "x", kind: "number", values: new Float64Array(0) }],
    });
    expect(df.columns).toEqual(["x"]);
    expect(tableFromDataFrame(new DataFrame([])).rowCount).toBe(0);
  });
});
