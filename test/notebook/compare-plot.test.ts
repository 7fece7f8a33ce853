import { describe, expect, it } from "vitest";
import { chartLabels } from "./chart-labels.js";
import * as dfd from "danfojs-node";
import { histogram, numericColumn, numericColumnNames } from "../../src/display/render/histogram.js";
import { compareDistributions, comparisonSpec } from "../../src/display/notebook/compare-plot.js";
import type { Table } from "../../src/core/formats/table.js";

describe("histogram", () => {
  it("counts every finite value once, the maximum in the last bin", () => {
    const values = Float64Array.from({ length: 1001 }, (_, i) => i / 10);
    const { bins, missing } = histogram(values, 10);
    expect(missing).toBe(0);
    expect(bins).toHaveLength(10);
    expect(bins.reduce((s, b) => s + b.count, 0)).toBe(1001);
    expect(bins[0]).toEqual({ start: 0, end: 10, count: 100 });
    expect(bins[9]).toEqual({ start: 90, end: 100, count: 101 });
  });

  it("counts missing values apart and handles constant and empty columns", () => {
    expect(histogram([1, Number.NaN, 3, Number.NaN], 2)).toEqual({
      bins: [
        { start: 1, end: 2, count: 1 },
        { start: 2, end: 3, count: 1 },
      ],
      missing: 2,
    });
    expect(histogram([5, 5, 5])).toEqual({ bins: [{ start: 4.5, end: 5.5, count: 3 }], missing: 0 });
    expect(histogram([Number.NaN])).toEqual({ bins: [], missing: 1 });
  });
});

describe("numeric columns", () => {
  const table: Table = {
    rowCount: 2,
    columns: [
      { name: "a", kind: "number", values: Float64Array.from([1, 2]) },
      { name: "s", kind: "string", values: ["x", "y"] },
    ],
  };

  it("reads them from Tables, danfo DataFrames and plain objects", () => {
    expect(numericColumnNames(table)).toEqual(["a"]);
    const df = new dfd.DataFrame({ a: [1.5, 2.5], s: ["x", "y"], n: [1, 2] });
    expect(numericColumnNames(df)).toEqual(["a", "n"]);
    expect(Array.from(numericColumn(df, "a"))).toEqual([1.5, 2.5]);
    expect(Array.from(numericColumn({ a: [1, null] }, "a"))).toEqual([1, Number.NaN]);
  });

  it("names the columns there are when one is missing", () => {
    expect(() => numericColumn(table, "b")).toThrow('column "b" not found; the data has a, s');
  });
});

describe("compareDistributions", () => {
  it("builds one row per feature with independent scales", () => {
    const spec = comparisonSpec({ a: [1, 2, 3], b: [4, 5, 6] }, { a: [-1, 0, 1], b: [0, 0.5, 1] }, { bins: 3 });
    const values = (spec.data as { values: Array<{ feature: string; stage: string; count: number }> }).values;
    expect(new Set(values.map((v) => `${v.feature}/${v.stage}`))).toEqual(
      new Set(["a/before", "a/after", "b/before", "b/after"]),
    );
    expect(values.filter((v) => v.feature === "a" && v.stage === "after").reduce((s, v) => s + v.count, 0)).toBe(3);
    expect(spec.resolve).toEqual({ scale: { x: "independent", y: "independent" } });
  });

  it("renders real SVG with Vega", async () => {
    const n = 2000;
    const before = new dfd.DataFrame({
      income: Array.from({ length: n }, (_, i) => 20000 + ((i * 7919) % 1000) * 80),
      age: Array.from({ length: n }, (_, i) => 18 + (i % 60)),
    });
    const after = {
      income: Array.from({ length: n }, (_, i) => ((i * 7919) % 1000) / 500 - 1),
      age: Array.from({ length: n }, (_, i) => (i % 60) / 30 - 1),
    };
    const chart = await compareDistributions(before, after, { columns: ["income", "age"], title: "StandardScaler" });
    expect(chart.svg.startsWith("<svg")).toBe(true);
    expect(chart.svg).toContain("income");
    expect(chart.svg).toContain("age");
    expect(chart.svg).toContain("StandardScaler");
    expect((chart.svg.match(/<path/g) ?? []).length).toBeGreaterThan(4);
    expect(chart.size.width).toBeGreaterThan(400);
    expect(chart.size.height).toBeGreaterThan(200);
    expect(() => chart.show()).not.toThrow(); // no notebook here: nothing shown, no error
  });

  it("refuses data with no numeric column in common", async () => {
    await expect(compareDistributions({ a: [1] }, { b: [1] })).rejects.toThrow("pass { columns: [...] }");
  });
});

describe("plotDistributions", () => {
  it("puts up to three data sets side by side and more of them in rows", async () => {
    const { distributionsSpec, plotDistributions } = await import("../../src/display/notebook/compare-plot.js");
    const data = (shift: number) => ({ a: [1, 2, 3].map((v) => v + shift), b: [4, 5, 6].map((v) => v * shift) });
    const three = distributionsSpec({ x: data(0), y: data(1), z: data(2) });
    expect((three.facet as { column: { field: string; sort: string[] } }).column).toMatchObject({
      field: "stage",
      sort: ["x", "y", "z"],
    });
    const five = { p: data(0), q: data(1), r: data(2), s: data(3), t: data(4) };
    const many = distributionsSpec(five);
    expect((many.facet as { row: { field: string } }).row.field).toBe("stage");
    const color = (many.spec as { encoding: { color: { scale: { range: string[] } } } }).encoding.color.scale.range;
    expect(color).toHaveLength(5);
    expect(color[0]).toBe("#9ca3af");
    const chart = await plotDistributions(five, { columns: ["b"] });
    const titles = chartLabels(chart.svg);
    expect(titles).toEqual(["p", "q", "r", "s", "t", "b"]);
    expect(chart.size.height).toBeGreaterThan(chart.size.width);
  });

  it("refuses two identical labels and an empty set", async () => {
    const { comparisonSpec, distributionsSpec } = await import("../../src/display/notebook/compare-plot.js");
    expect(() => comparisonSpec({ a: [1] }, { a: [2] }, { labels: ["x", "x"] })).toThrow(
      'labels must differ, got "x" twice',
    );
    expect(() => distributionsSpec({})).toThrow("nothing to plot");
  });
});

describe("overlay", () => {
  it("bins data sets alike and plots shares of rows, so a shift shows", async () => {
    const { distributionsSpec, compareDistributions } = await import("../../src/display/notebook/compare-plot.js");
    const train = { t: Array.from({ length: 800 }, (_, i) => (i % 100) / 100) };
    const test = { t: Array.from({ length: 200 }, (_, i) => 0.5 + (i % 100) / 100) };
    const spec = distributionsSpec({ train, test }, { overlay: true, bins: 15 });
    const values = (spec.data as { values: Array<{ stage: string; start: number; end: number; share: number }> })
      .values;
    const edges = (stage: string) => values.filter((v) => v.stage === stage).map((v) => [v.start, v.end]);
    expect(edges("train")).toEqual(edges("test"));
    expect(edges("train")[0]).toEqual([0, 1.49 / 15]); // one range over both: 0 .. 1.49
    expect(edges("train").at(-1)![1]).toBeCloseTo(1.49, 10);
    for (const stage of ["train", "test"]) {
      expect(values.filter((v) => v.stage === stage).reduce((s, v) => s + v.share, 0)).toBeCloseTo(1, 12);
    }
    expect(values.filter((v) => v.stage === "test" && v.end <= 0.5).every((v) => v.share === 0)).toBe(true);
    const chart = await compareDistributions(train, test, { overlay: true, labels: ["train", "test"] });
    expect(chartLabels(chart.svg)).toEqual(expect.arrayContaining(["train", "test", "t"])); // legend and row header
  });
});

describe("SvgChart in a notebook", () => {
  it("is an <img> with the SVG as a data URI, sized, with alt text", async () => {
    const chart = await compareDistributions({ a: [1, 2, 3] }, { a: [0, 0.5, 1] }, { title: "MinMaxScaler" });
    const html = chart.toHTML();
    const match = /^<img src="data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)" width="(\d+)" alt="([^"]*)">$/.exec(html);
    expect(match).not.toBeNull();
    expect(Buffer.from(match![1]!, "base64").toString("utf8")).toBe(chart.svg);
    expect(Number(match![2])).toBe(chart.size.width);
    expect(match![3]).toBe("Histograms of a: before and after (MinMaxScaler)");
  });
});

describe("roundAttributes", () => {
  it("rounds coordinates in attributes and leaves text alone", async () => {
    const { roundAttributes } = await import("../../src/display/render/vega-svg.js");
    expect(
      roundAttributes('<path d="M8.499999999999993,0h8.000000000000007v90Z"/><text x="1.23456">0.00512</text>'),
    ).toBe('<path d="M8.49,0h8.00v90Z"/><text x="1.23">0.00512</text>');
  });
});
