import { describe, expect, it } from "vitest";
import { bar, binValues, histogramLines, panelLines } from "../../../repl/format/histogram.js";

describe("binValues", () => {
  it("bins like numpy.histogram (max in the last bin) and counts missing values", () => {
    const panel = binValues(Float64Array.from([0, 1, 2, 3, 4, NaN, 10]), 5, "x");
    expect(panel.bins.map((b) => b.count)).toEqual([2, 2, 1, 0, 1]);
    expect(panel.bins[0]).toMatchObject({ from: 0, to: 2 });
    expect(panel.bins[4]).toMatchObject({ from: 8, to: 10 });
    expect(panel.missing).toBe(1);
  });

  it("handles a constant column and an empty one", () => {
    expect(binValues(Float64Array.from([3, 3, 3]), 10, "c").bins).toEqual([{ from: 3, to: 3, count: 3 }]);
    expect(binValues(Float64Array.from([NaN]), 10, "e").bins).toEqual([]);
  });
});

describe("drawing", () => {
  it("scales bars to the largest bin, eighths included", () => {
    expect(bar(10, 10, 4)).toBe("████");
    expect(bar(5, 10, 4)).toBe("██");
    expect(bar(1, 10, 4)).toBe("▍");
    expect(bar(1, 1000, 4)).toBe("▏");
    expect(bar(0, 10, 4)).toBe("");
  });

  it("puts two panels side by side when wide, stacked when narrow", () => {
    const a = binValues(Float64Array.from([1, 2, 3, 4]), 4, "before");
    const b = binValues(Float64Array.from([-1, 0, 0, 1]), 4, "after");
    const wide = histogramLines([a, b], 120);
    expect(wide[0]).toMatch(/^before\s+after$/);
    expect(wide.length).toBe(panelLines(a, 58).length);
    const narrow = histogramLines([a, b], 60);
    expect(narrow[0]).toBe("before");
    expect(narrow).toContain("after");
    for (const line of [...wide, ...narrow]) expect(line.length).toBeLessThanOrEqual(120);
  });
});
