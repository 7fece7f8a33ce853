import { describe, expect, it } from "vitest";
import {
  plotJoint,
  compareRanges,
  renderVegaLite,
  plotDistributions,
  histogram,
} from "../../src/display/notebook/index.js";
import { jobLabel } from "../../src/session/job/label.js";
import { percentiles, sampleRows } from "../../src/display/render/plot-data.js";
import { chartMarks } from "./chart-marks.js";
import { chartLabels } from "./chart-labels.js";

/** 200 rows: x and y roughly linear, two outliers far out, a two-class label. */
function data(rows = 200) {
  const x = Array.from({ length: rows }, (_, i) => i / 10);
  const y = x.map((v, i) => 2 * v + ((i * 7919) % 13) / 13);
  x[5] = 1000;
  y[6] = -500;
  const label = x.map((_, i) => (i % 3 === 0 ? "malignant" : "benign"));
  return { x, y, label };
}

describe("plotJoint", () => {
  it("draws per data set a scatter with two marginal histograms, and a zoom panel with clip", async () => {
    const before = data();
    const after = { x: before.x.map((v) => v / 10), y: before.y.map((v) => v / 10), label: before.label };
    const chart = await plotJoint(
      { before, scaled: after },
      { x: "x", y: "y", color: "label", clip: [1, 99], bins: 20 },
    );
    const marks = chartMarks(chart.svg);
    expect(marks.scatters).toBe(4); // 2 data sets x (all rows, zoom)
    expect(marks.histograms).toBe(8); // each scatter's two margins
    expect(marks.bars).toBe(8 * 20);
    expect(marks.legendEntries).toBe(2); // one legend for the whole figure: benign, malignant
    expect(marks.colourBar).toBe(false);
    // All 200 rows in each full panel; the zoom drops the two outliers and the rows past p1/p99.
    const zoomed = 200 - 2 - 2 - 2;
    expect(marks.points).toBe(2 * 200 + 2 * zoomed);
    expect(chartLabels(chart.svg)).toEqual(expect.arrayContaining(["before", "scaled", "benign", "malignant"]));
    expect(chart.alt).toContain("coloured by label");
  });

  it("samples past maxPoints with a seed, says so, and draws the same picture for the same seed", async () => {
    const big = data(5000);
    const options = { x: "x", y: "y", maxPoints: 300, seed: 7 } as const;
    const a = await plotJoint([big], options);
    const b = await plotJoint([big], options);
    expect(JSON.stringify(a.spec)).toBe(JSON.stringify(b.spec)); // (the SVGs differ only in Vega's clip-path ids)
    expect(chartMarks(a.svg).points).toBe(300);
    expect(chartLabels(a.svg).join(" ")).toContain("300 of 5000 rows drawn (uniform sample, seed 7)");
    expect(sampleRows(5000, 300, 7)).not.toEqual(sampleRows(5000, 300, 8));
  });

  it("colours by a continuous column with a colour bar", async () => {
    const d = data();
    const chart = await plotJoint([{ ...d, value: d.x.map((v) => v * 1.5) }], { x: "x", y: "y", color: "value" });
    expect(chartMarks(chart.svg).colourBar).toBe(true);
  });

  it("names what is wrong: a missing column, a colour column nowhere, a bad clip", async () => {
    const d = data();
    await expect(plotJoint([d], { x: "x", y: "z" })).rejects.toThrow(
      /y of "data 1": column "z" not found; the data has x, y, label/,
    );
    await expect(plotJoint([d], { x: "x", y: "lable" })).rejects.toThrow(
      'column "lable" not found (did you mean `label`?); the data has x, y, label',
    );
    await expect(plotJoint([d], { x: "x", y: "y", color: "target" })).rejects.toThrow(
      /color: column "target" is in none/,
    );
    await expect(plotJoint([d], { x: "x", y: "y", clip: [99, 1] })).rejects.toThrow(/low below high/);
  });

  it("labels jobs by transform and non-default parameters", async () => {
    const d = data();
    const job = (type: string, params: Record<string, unknown>) => ({
      id: "00000000-0000-4000-8000-000000000000",
      type,
      result: () => Promise.resolve({ fitted: { type, params } }),
      dataframe: () => Promise.resolve(d),
    });
    const chart = await plotJoint(
      [
        job("PowerTransformer", { method: "yeo-johnson", standardize: true }),
        job("PowerTransformer", { method: "box-cox" }),
      ],
      {
        x: "x",
        y: "y",
      },
    );
    expect(chartLabels(chart.svg)).toEqual(
      expect.arrayContaining(["PowerTransformer", "PowerTransformer (method=box-cox)"]),
    );
  });
});

describe("plot helpers", () => {
  it("percentiles as numpy computes them (linear interpolation)", () => {
    expect(percentiles([1, 2, 3, 4], [0, 50, 99, 100])).toEqual([1, 2.5, 3.9699999999999998, 4]);
    expect(percentiles([NaN, NaN], [50])).toEqual([NaN]);
  });

  it("a bin edge that should be 0 is 0, not 4.8922e-11", () => {
    const { bins } = histogram([-0.3, -0.1, 0.1, 0.3, 0.4 - 1e-12], 7);
    expect(bins.map((b) => b.start)).toContain(0);
    for (const b of bins) expect(String(b.start)).not.toMatch(/e-/);
  });

  it("jobLabel leaves out defaults and copy", () => {
    expect(jobLabel("RobustScaler", { quantile_range: [10, 90], copy: false, with_centering: true })).toBe(
      "RobustScaler (quantile_range=10,90)",
    );
    expect(jobLabel("StandardScaler", {})).toBe("StandardScaler");
  });

  it("compareRanges: min, p1, p50, p99, max per data set", async () => {
    const table = await compareRanges({ a: { v: [0, 1, 2, 3, 4] }, b: { v: [0, 10, 20, 30, 40] } }, { column: "v" });
    expect(table.rows.map((r) => [r.label, r.min, r.p50, r.max])).toEqual([
      ["a", 0, 2, 4],
      ["b", 0, 20, 40],
    ]);
    expect(table.toString()).toMatch(/v after each transform\n\s+min\s+p1\s+p50\s+p99\s+max\na/);
    expect(table.toHTML()).toContain("<th");
  });

  it("renderVegaLite renders a user's spec to the SvgChart mdps uses", async () => {
    const chart = await renderVegaLite({
      title: "mine",
      data: {
        values: [
          { a: 1, b: 2 },
          { a: 2, b: 3 },
        ],
      },
      mark: "point",
      encoding: { x: { field: "a", type: "quantitative" }, y: { field: "b", type: "quantitative" } },
    });
    expect(chartMarks(chart.svg).points).toBe(2);
    expect(chart.alt).toBe("mine");
    expect(chart.toHTML()).toMatch(/^<img src="data:image\/svg\+xml;base64,/);
    await expect(renderVegaLite("nope" as never)).rejects.toThrow(/takes a Vega-Lite spec as an object/);
  });

  it("plotDistributions: a shared x range per feature lines the bars up; a fixed domain counts what is outside", async () => {
    const a = { v: [0, 1, 2, 3] };
    const b = { v: [0, 10, 20, 30] };
    const shared = await plotDistributions({ a, b }, { sharedX: "feature", bins: 5 });
    const values = (shared.spec.data as { values: Array<{ stage: string; start: number; end: number }> }).values;
    const edges = (stage: string) => values.filter((v) => v.stage === stage).map((v) => [v.start, v.end]);
    expect(edges("a")).toEqual(edges("b"));
    const fixed = await plotDistributions({ a, b }, { domain: [0, 5], bins: 5, log: true });
    expect(chartLabels(fixed.svg)).toEqual(expect.arrayContaining(["v", "3 outside"])); // the note under b's panel
  });
});
