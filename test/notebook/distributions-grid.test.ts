/**
 * plotDistributions as a grid: one row per feature whatever each panel counts, a note
 * under each panel (values outside or missing, a fitted lambda), and a range of its own
 * for the transformed panels: scikit-learn's "Map data to a normal distribution" figure.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Session } from "../../src/index.js";
import { distributionsSpec, plotDistributions } from "../../src/display/notebook/compare-plot.js";
import { chartLabels } from "./chart-labels.js";
import { chartMarks } from "./chart-marks.js";

type Row = {
  kind: string;
  feature: string;
  stage?: string;
  start?: number;
  end?: number;
  count?: number;
  note?: string;
};
const rows = (spec: Record<string, unknown>) => (spec.data as { values: Row[] }).values;

describe("one row per feature", () => {
  it("keeps a feature in one row when the panels count different values outside the domain", async () => {
    const sets = { a: { x: [-5, -1, 0, 1, 5] }, b: { x: [-1, 0, 1, 2, 3] }, c: { x: [0, 0.5, 1, 9, 9] } };
    const chart = await plotDistributions(sets, { domain: [-2, 2], bins: 5 });
    const labels = chartLabels(chart.svg);
    expect(labels.filter((l) => l === "x")).toHaveLength(1); // one row header
    expect(labels).toEqual(["x", "a", "b", "c", "2 outside", "1 outside", "2 outside"]);
    expect(chartMarks(chart.svg).histograms).toBe(3);
    expect(chartMarks(chart.svg).bars).toBe(15);
  });

  it("keeps it when the panels miss different counts, and notes an empty panel", async () => {
    const sets = {
      a: { x: [1, 2, Number.NaN], y: [1, 2, 3] },
      b: { x: [1, 2, 3], y: [Number.NaN, Number.NaN, Number.NaN] },
    };
    const chart = await plotDistributions(sets, { bins: 3 });
    const labels = chartLabels(chart.svg);
    expect(labels.filter((l) => l === "x" || l === "y")).toEqual(["x", "y"]);
    expect(labels).toContain("1 missing");
    expect(labels).toContain("3 missing"); // the empty panel says why it is empty
    // Six features and notes in every panel: still six rows (the eleven rows).
    const six = Object.fromEntries(["p", "q", "r", "s", "t", "u"].map((f, i) => [f, [i, Number.NaN, 1, 2]]));
    const other = Object.fromEntries(["p", "q", "r", "s", "t", "u"].map((f) => [f, [0, 1, 2, 3]]));
    const spec = distributionsSpec({ before: six, after: other }, { domain: [0, 1.5] });
    const compiled = await plotDistributions({ before: six, after: other }, { domain: [0, 1.5] });
    expect(new Set(rows(spec).map((r) => r.feature)).size).toBe(6);
    expect(chartMarks(compiled.svg).histograms).toBe(12);
  });

  it("overlay notes each data set's counts in one line under the panel", async () => {
    const chart = await plotDistributions(
      { train: { x: [0, 1, 5] }, test: { x: [0, 1, 2] } },
      { overlay: true, domain: [0, 2] },
    );
    expect(chartLabels(chart.svg)).toEqual(expect.arrayContaining(["x", "train: 1 outside"]));
  });
});

describe("a range for the transformed panels", () => {
  it("bins the first data set over its own range and the others over transformedDomain", () => {
    const spec = distributionsSpec(
      { original: { v: [10, 20, 30] }, scaled: { v: [-1, 0, 4] } },
      { transformedDomain: [-3.5, 3.5], bins: 7 },
    );
    const bars = rows(spec).filter((r) => r.kind === "bar");
    const edges = (stage: string) => bars.filter((r) => r.stage === stage).map((r) => [r.start, r.end]);
    expect(edges("original")[0]![0]).toBe(10);
    expect(edges("original").at(-1)![1]).toBe(30);
    expect(edges("scaled")[0]).toEqual([-3.5, -2.5]);
    expect(edges("scaled").at(-1)![1]).toBe(3.5);
    expect(rows(spec).filter((r) => r.kind === "note")).toEqual([
      { kind: "note", feature: "v", order: 0, stage: "scaled", note: "1 outside" },
    ]);
  });

  it("refuses a range that is not two numbers, low below high", () => {
    expect(() => distributionsSpec({ a: { v: [1] } }, { transformedDomain: [3, -3] })).toThrow(
      "transformedDomain must be two numbers, low below high, such as [-3.5, 3.5]; got [3, -3]",
    );
  });
});

describe("scikit-learn's figure from jobs of the real local service", () => {
  let dir = "";
  let session: Session | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "mdps-grid-"));
    session = await Session.local({ dataDir: dir });
  });
  afterAll(async () => {
    await session?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("writes each PowerTransformer job's lambda under its panels, as scikit-learn fits them", async () => {
    const local = session!;
    const data = await local.upload(join(import.meta.dirname, "../../notebooks/data/distributions.csv"));
    const run = (
      params: Record<string, unknown>,
      type: "PowerTransformer" | "QuantileTransformer" = "PowerTransformer",
    ) => local.preprocess(data, { type, params });
    const [boxCox, yeoJohnson, quantile] = await Promise.all([
      run({ method: "box-cox" }),
      run({}),
      run({ n_quantiles: 500, output_distribution: "normal" }, "QuantileTransformer"),
    ]);
    const chart = await plotDistributions(
      { original: data, "Box-Cox": boxCox, "Yeo-Johnson": yeoJohnson, Quantile: quantile },
      { transformedDomain: [-3.5, 3.5] },
    );
    const labels = chartLabels(chart.svg);
    // scikit-learn 1.2.1's lambdas, as notebooks/data/map_to_normal.py prints them.
    const boxCoxLambdas = [0.02, 0.3, 12.61, 4.62, 0.65, 0.48];
    const yeoJohnsonLambdas = [-0.81, -0.11, 24.54, 4.66, 0.49, 0.48];
    for (const lambda of [...boxCoxLambdas, ...yeoJohnsonLambdas]) {
      expect(labels.some((l) => l.startsWith(`λ = ${lambda}`))).toBe(true);
    }
    expect(labels.filter((l) => l.startsWith("λ ="))).toHaveLength(12);
    expect(chartMarks(chart.svg).histograms).toBe(24);
    const spec = rows(chart.spec);
    const quantileBars = spec.filter((r) => r.kind === "bar" && r.stage === "Quantile");
    expect(Math.min(...quantileBars.map((r) => r.start!))).toBe(-3.5);
    expect(Math.max(...quantileBars.map((r) => r.end!))).toBe(3.5);
  });
});
