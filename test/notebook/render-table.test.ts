import { describe, expect, it } from "vitest";
import * as dfd from "danfojs-node";
import { dataFrameHtml, tableHtml, tableText, visiblePositions } from "../../src/display/render/table.js";
import type { Table } from "../../src/core/formats/table.js";

describe("visiblePositions", () => {
  it("shows everything up to the limit, then head, a gap and tail", () => {
    expect(visiblePositions(3, 10)).toEqual([0, 1, 2]);
    expect(visiblePositions(100, 6)).toEqual([0, 1, 2, -1, 97, 98, 99]);
    expect(visiblePositions(11, 5)).toEqual([0, 1, 2, -1, 9, 10]);
  });
});

describe("dataFrameHtml", () => {
  it("renders shape, dtypes, and head and tail of a large danfo DataFrame", () => {
    const n = 1000;
    const df = new dfd.DataFrame({
      x: Array.from({ length: n }, (_, i) => i * 0.5),
      label: Array.from({ length: n }, (_, i) => `row${i}`),
    });
    const html = dataFrameHtml(df, { maxRows: 6 });
    expect(html).toContain("1,000 rows × 2 columns");
    expect(df.dtypes).toEqual(["float32", "string"]); // danfo's label for JS numbers...
    expect(html).toContain(">float64<"); // ...which hold float64: the table says so
    expect(html).not.toContain("float32");
    expect(html).toContain("row0");
    expect(html).toContain("row2");
    expect(html).not.toContain("row3<");
    expect(html).toContain("row999");
    expect(html).toContain("499.5");
    expect(html).toContain("…");
    expect(html).not.toContain("╔"); // not danfo's box drawing
  });

  it("names dtypes as /check and /describe do (pandas' names), not danfo's labels", () => {
    const df = new dfd.DataFrame({
      id: [1, 2, 3],
      big: [3e9, 4e9, 5e9],
      gap: [1, Number.NaN, 3],
      city: ["Oslo", "Lima", "Pune"],
      ok: [true, false, true],
    });
    expect(df.dtypes).toEqual(["int32", "int32", "float32", "string", "boolean"]);
    const headers = [...dataFrameHtml(df).matchAll(/font-style:italic">([^<]*)</g)].map((m) => m[1]);
    expect(headers).toEqual(["int64", "int64", "float64", "object", "bool"]);
  });

  it("escapes column names and values and marks missing values", () => {
    const df = new dfd.DataFrame({ "<b>a</b>": [1, Number.NaN], s: ["<script>x</script>", "ok"] });
    const html = dataFrameHtml(df);
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;");
    expect(html).toContain("&lt;b&gt;a&lt;/b&gt;");
    expect(html).toContain(">NaN<");
  });
});

describe("tableHtml and tableText", () => {
  const table: Table = {
    rowCount: 3,
    columns: [
      { name: "v", kind: "number", values: Float64Array.from([1.5, Number.NaN, 1e-7]) },
      { name: "city", kind: "string", values: ["Oslo", null, "Lima"] },
    ],
  };

  it("renders an mdps Table with its columns' dtypes", () => {
    const html = tableHtml(table, { title: "Result" });
    expect(html).toContain("<b>Result</b>");
    expect(html).toContain("3 rows × 2 columns");
    expect([...html.matchAll(/font-style:italic">([^<]*)</g)].map((m) => m[1])).toEqual(["float64", "object"]);
    const whole = tableHtml({
      rowCount: 2,
      columns: [{ name: "n", kind: "number", values: Float64Array.from([1, 2]) }],
    });
    expect(whole).toContain(">int64<");
    expect(html).toContain("1.0000e-7");
  });

  it("aligns the same view as text", () => {
    const text = tableText(table);
    const lines = text.split("\n");
    expect(lines[0]).toBe("Table 3 rows × 2 columns (v, city)");
    expect(lines[1]).toMatch(/^\s+v\s+city$/);
    expect(lines[3]).toMatch(/^0\s+1\.5\s+Oslo$/);
    expect(lines[4]).toMatch(/^1\s+NaN\s+NaN$/);
  });
});
