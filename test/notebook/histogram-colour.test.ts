import { describe, expect, it } from "vitest";
import { chartLabels } from "./chart-labels.js";
import { chartMarks } from "./chart-marks.js";
import { histogram } from "../../src/display/render/histogram.js";
import { distributionsSpec, plotDistributions } from "../../src/display/notebook/compare-plot.js";

interface ClassBin {
  feature: string;
  stage: string;
  group: string;
  start: number;
  end: number;
  count: number;
}

const binsOf = (spec: ReturnType<typeof distributionsSpec>) => (spec.data as { values: ClassBin[] }).values;

/** A hundred rows: x 0..99, its class the parity of the row. */
const before = { x: Array.from({ length: 100 }, (_, i) => i), target: Array.from({ length: 100 }, (_, i) => i % 2) };
// The transformed data keeps no target: the classes come from the first data set, row by row.
const after = { x: before.x.map((v) => v * 2) };

describe("histograms coloured by a column", () => {
  it("splits each panel's bars by class over the panel's own bins: the classes add up to the whole", () => {
    const spec = distributionsSpec({ before, after }, { columns: ["x"], color: "target", bins: 10 });
    const values = binsOf(spec);
    expect(new Set(values.map((v) => v.group))).toEqual(new Set(["0", "1"]));
    for (const [stage, data] of [
      ["before", before.x],
      ["after", after.x],
    ] as const) {
      const whole = histogram(data, 10).bins;
      const mine = values.filter((v) => v.stage === stage);
      for (const bin of whole) {
        const parts = mine.filter((v) => v.start === bin.start && v.end === bin.end);
        expect(parts).toHaveLength(2);
        expect(parts.reduce((n, v) => n + v.count, 0)).toBe(bin.count);
      }
    }
    // Stacked, one colour per class, the column's name over the legend.
    const encoding = (spec.spec as { encoding: { color: { field: string; title: string; sort: string[] } } }).encoding;
    expect(encoding.color).toMatchObject({ field: "group", title: "target", sort: ["0", "1"] });
  });

  it("clips each class's rows with the panel, row by row", () => {
    const x = [...Array.from({ length: 99 }, (_, i) => i), 1000];
    const target = [...Array.from({ length: 99 }, () => "inlier"), "outlier"];
    const values = binsOf(
      distributionsSpec({ data: { x, target } }, { columns: ["x"], color: "target", clip: [0, 99] }),
    );
    expect(values.filter((v) => v.group === "outlier").reduce((n, v) => n + v.count, 0)).toBe(0);
    expect(values.filter((v) => v.group === "inlier").reduce((n, v) => n + v.count, 0)).toBe(99);
    expect(Math.max(...values.map((v) => v.end))).toBe(98);
  });

  it("draws a legend of the classes, a row without one as (missing)", async () => {
    const target: Array<string | null> = before.target.map((t) => (t === 0 ? "benign" : "malignant"));
    target[7] = null;
    const chart = await plotDistributions(
      { before: { x: before.x, target }, after },
      { columns: ["x"], color: "target" },
    );
    const marks = chartMarks(chart.svg);
    expect(marks.legendEntries).toBe(3);
    expect(marks.histograms).toBe(2);
    expect(chartLabels(chart.svg)).toEqual(expect.arrayContaining(["target", "benign", "malignant", "(missing)"]));
  });

  it("gives each of ten classes and (missing) a colour of its own", () => {
    const digit: Array<number | null> = Array.from({ length: 100 }, (_, i) => i % 10);
    digit[5] = null;
    const spec = distributionsSpec({ digits: { x: before.x, digit } }, { columns: ["x"], color: "digit" });
    const { domain, range } = (spec.spec as { encoding: { color: { scale: { domain: string[]; range: string[] } } } })
      .encoding.color.scale;
    expect(domain).toEqual([...Array.from({ length: 10 }, (_, i) => String(i)), "(missing)"]);
    expect(new Set(range.slice(0, domain.length)).size).toBe(domain.length);
  });

  it("refuses a quantity, too many classes and overlay, saying what to pass", () => {
    const many = { x: before.x, id: before.x.map((i) => `row${i}`) };
    expect(() => distributionsSpec({ many }, { columns: ["x"], color: "id" })).toThrow(
      'color: column "id" has 100 values; histograms split their bars by a column of at most 10 classes',
    );
    const measured = { x: before.x, weight: before.x.map((i) => i / 3) };
    expect(() => distributionsSpec({ measured }, { columns: ["x"], color: "weight" })).toThrow(
      'color: column "weight" has values of a quantity',
    );
    expect(() => distributionsSpec({ before, after }, { color: "target", overlay: true })).toThrow(
      "leave out one of them",
    );
    expect(() => distributionsSpec({ after }, { color: "target" })).toThrow('color: column "target" is in none');
  });
});
