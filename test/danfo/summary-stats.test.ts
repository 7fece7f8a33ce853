import { describe, expect, it } from "vitest";
import { quantileSorted, summarize, summarizeNumbers } from "../../src/danfo/summary-stats.js";

describe("summarizeNumbers", () => {
  it("matches pandas describe() on data with a missing value", () => {
    // pandas.Series([1, 2, 3, 4, 10, None]).describe()
    const s = summarizeNumbers(Float64Array.from([1, 2, 3, 4, 10, NaN]));
    expect(s.count).toBe(5);
    expect(s.missing).toBe(1);
    expect(s.mean).toBe(4);
    expect(s.std).toBeCloseTo(3.5355339059327378, 12);
    expect([s.min, s.q25, s.median, s.q75, s.max]).toEqual([1, 2, 3, 4, 10]);
  });

  it("interpolates quantiles linearly as numpy does", () => {
    expect(quantileSorted(Float64Array.from([1, 2, 3, 4]), 0.25)).toBe(1.75);
    expect(quantileSorted(Float64Array.from([]), 0.5)).toBeNaN();
  });

  it("summarizes text columns with unique, top and freq", () => {
    const s = summarize({ name: "c", kind: "string", values: ["a", "b", "a", null] });
    expect(s).toEqual({ kind: "string", count: 3, missing: 1, unique: 2, top: "a", freq: 2 });
  });
});
