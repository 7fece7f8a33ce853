import {
  Float32,
  Int32,
  Int64,
  Utf8,
  tableFromArrays,
  tableToIPC,
  vectorFromArray,
  Table as ArrowTable,
  tableFromIPC,
} from "apache-arrow";
import { describe, expect, it } from "vitest";
import { readArrow, writeArrow } from "../../src/core/formats/arrow.js";
import { FormatError } from "../../src/core/formats/format-error.js";
import type { Table } from "../../src/core/formats/table.js";
import { collect, hardDoubles, numberColumn, pieces, sameDoubles, textColumn } from "./byte-sources.js";

const sample = (): Table => {
  const x = hardDoubles(3_000);
  x[7] = NaN;
  return {
    rowCount: x.length,
    columns: [
      { name: "x", kind: "number", values: x },
      {
        name: "s",
        kind: "string",
        values: Array.from(x, (_, i) => (i % 4 === 0 ? null : i % 4 === 1 ? `Zoë ${i}` : `id-${i}`)),
      },
      { name: "flag", kind: "boolean", values: Array.from(x, (_, i) => (i % 3 === 0 ? null : i % 3 === 1)) },
    ],
  };
};

describe("Arrow IPC", () => {
  it("round-trips float64 bit for bit, strings and booleans, NaN as null", async () => {
    const table = sample();
    const bytes = await collect(writeArrow(table));
    expect(bytes.subarray(0, 6).toString()).toBe("ARROW1");
    const back = await readArrow(pieces(bytes, 4096));
    expect(back.rowCount).toBe(table.rowCount);
    expect(sameDoubles(numberColumn(back, "x"), numberColumn(table, "x"))).toBe(true);
    expect(textColumn(back, "s")).toEqual(table.columns[1]?.values);
    expect(back.columns[2]?.values).toEqual(table.columns[2]?.values);
    // Missing numbers are real Arrow nulls, as other readers expect.
    const arrow = tableFromIPC(bytes);
    expect(arrow.getChild("x")?.nullCount).toBe(1);
    expect(arrow.getChild("x")?.get(7)).toBeNull();
  });

  it("shares the IPC buffer for a float64 column without nulls", async () => {
    const values = new Float64Array([1, 2, 3.5]);
    const bytes = await collect(writeArrow({ rowCount: 3, columns: [{ name: "x", kind: "number", values }] }));
    const back = await readArrow(bytes);
    const x = numberColumn(back, "x");
    expect(Array.from(x)).toEqual([1, 2, 3.5]);
    expect(x.buffer).toBe(bytes.buffer);
  });

  it("reads the stream format and other numeric types as numbers", async () => {
    const arrow = new ArrowTable({
      i: vectorFromArray([1, null, -3], new Int32()),
      f: vectorFromArray([1.5, 2.25, null], new Float32()),
      big: vectorFromArray([10n, 2n ** 40n, null], new Int64()),
      s: vectorFromArray(["a", null, "c"], new Utf8()),
    });
    for (const format of ["stream", "file"] as const) {
      const back = await readArrow(tableToIPC(arrow, format));
      expect(Array.from(numberColumn(back, "i"))).toEqual([1, NaN, -3]);
      expect(Array.from(numberColumn(back, "f"))).toEqual([1.5, 2.25, NaN]);
      expect(Array.from(numberColumn(back, "big"))).toEqual([10, 2 ** 40, NaN]);
      expect(textColumn(back, "s")).toEqual(["a", null, "c"]);
    }
  });

  it("reads dictionary-encoded strings and multi-batch tables", async () => {
    const dict = tableFromArrays({ cat: ["x", "y", "x"] });
    expect(textColumn(await readArrow(tableToIPC(dict)), "cat")).toEqual(["x", "y", "x"]);
    const a = tableFromArrays({ v: new Float64Array([1, 2]) });
    const b = tableFromArrays({ v: new Float64Array([3]) });
    const both = new ArrowTable([...a.batches, ...b.batches]);
    expect(Array.from(numberColumn(await readArrow(tableToIPC(both)), "v"))).toEqual([1, 2, 3]);
  });

  it("rejects bytes that are not Arrow", async () => {
    await expect(readArrow(new TextEncoder().encode("a,b\n1,2\n"))).rejects.toBeInstanceOf(FormatError);
  });
});
