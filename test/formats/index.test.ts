import { describe, expect, it } from "vitest";
import { FormatError, readTable, replaceColumns, selectFeatures, writeTable } from "../../src/core/formats/index.js";
import type { Table } from "../../src/core/formats/table.js";
import { collect } from "./byte-sources.js";

const table: Table = {
  rowCount: 2,
  columns: [
    { name: "id", kind: "string", values: ["a", "b"] },
    { name: "x", kind: "number", values: new Float64Array([1, 2]) },
    { name: "flag", kind: "boolean", values: [true, false] },
    { name: "y", kind: "number", values: new Float64Array([3, 4]) },
  ],
};

describe("selectFeatures", () => {
  it("takes every numeric column when the list is empty", () => {
    const f = selectFeatures(table, []);
    expect(f.names).toEqual(["x", "y"]);
    expect(f.columns[0]).toBe((table.columns[1] as { values: Float64Array }).values);
  });

  it("keeps the requested order", () => {
    expect(selectFeatures(table, ["y", "x"]).names).toEqual(["y", "x"]);
  });

  it("names a missing or non-numeric column and lists the numeric ones", () => {
    expect(() => selectFeatures(table, ["nope"])).toThrow(/"nope" does not exist; numeric columns: "x", "y"/);
    expect(() => selectFeatures(table, ["id"])).toThrow(/"id" is not numeric.*numeric columns: "x", "y"/);
    expect(() => selectFeatures({ rowCount: 0, columns: [table.columns[0] as never] }, [])).toThrow(FormatError);
  });
});

describe("replaceColumns", () => {
  it("replaces feature columns and keeps the others as they are, in order", () => {
    const out = replaceColumns(table, ["y", "x"], [new Float64Array([30, 40]), new Float64Array([10, 20])]);
    expect(out.columns.map((c) => c.name)).toEqual(["id", "x", "flag", "y"]);
    expect(Array.from(out.columns[1]?.values as Float64Array)).toEqual([10, 20]);
    expect(Array.from(out.columns[3]?.values as Float64Array)).toEqual([30, 40]);
    expect(out.columns[0]).toBe(table.columns[0]);
    expect(out.columns[2]).toBe(table.columns[2]);
  });

  it("rejects a length mismatch", () => {
    expect(() => replaceColumns(table, ["x"], [new Float64Array(3)])).toThrow(/3 values/);
  });
});

describe("readTable / writeTable", () => {
  it("dispatches on the record type", async () => {
    for (const type of ["csv", "json", "arrow"] as const) {
      const back = await readTable(type, await collect(writeTable(type, table)));
      expect(back.columns.map((c) => c.name)).toEqual(["id", "x", "flag", "y"]);
      expect(Array.from(back.columns[3]?.values as Float64Array)).toEqual([3, 4]);
    }
  });

  it("treats an empty numericColumns list as auto, like an empty feature_columns", async () => {
    const t = await readTable("csv", "a,b\n1,x\n", { numericColumns: [] });
    expect(t.columns.map((c) => c.kind)).toEqual(["number", "string"]);
  });

  it("rejects an unknown record type", async () => {
    await expect(readTable("xml" as never, "")).rejects.toBeInstanceOf(FormatError);
  });
});
