/** Selection-based order statistics against a full sort (numpy's definitions, section 9). */
import { describe, expect, it } from "vitest";
import { percentileSorted, selectStatistics } from "../../src/core/engine/percentile.js";
import { averagedInterp } from "../../src/core/engine/quantile-interp.js";
import { references } from "../../src/core/engine/quantile-transformer.js";
import { RandomState } from "../../src/core/engine/random-state.js";

function sample(rng: RandomState, n: number, distinct: number): Float64Array {
  const a = new Float64Array(n);
  for (let i = 0; i < n; i++) a[i] = distinct > 0 ? rng.interval(distinct - 1) - distinct / 2 : rng.nextUint32() / 7;
  return a;
}

describe("selectStatistics", () => {
  it("equals percentiles and the median of a sorted copy, on many shapes", () => {
    const rng = new RandomState(2024);
    const probabilities = [0, 0.055, 0.25, 0.5, 0.75, 0.9725, 1];
    for (const n of [1, 2, 3, 4, 5, 24, 25, 26, 100, 1001, 5000]) {
      for (const distinct of [0, 1, 2, 7, 1000]) {
        const a = sample(rng, n, distinct);
        const sorted = a.slice().sort();
        const { percentiles, median } = selectStatistics(a.slice(), n, probabilities, true);
        expect(percentiles).toEqual(probabilities.map((p) => percentileSorted(sorted, n, p)));
        const half = n >> 1;
        expect(median).toBe(n % 2 ? sorted[half] : (sorted[half - 1] + sorted[half]) / 2);
      }
    }
  });

  it("handles sorted, reversed and organ-pipe input without going quadratic", () => {
    const n = 200_000;
    const shapes = [
      Float64Array.from({ length: n }, (_, i) => i),
      Float64Array.from({ length: n }, (_, i) => n - i),
      Float64Array.from({ length: n }, (_, i) => Math.min(i, n - i)),
    ];
    for (const a of shapes) {
      const sorted = a.slice().sort();
      const { percentiles } = selectStatistics(a, n, [0.25, 0.75], false);
      expect(percentiles).toEqual([0.25, 0.75].map((p) => percentileSorted(sorted, n, p)));
    }
  });

  it("agrees with a sort on large columns: outliers, few distinct values, tiny ranges, huge ranges", () => {
    const rng = new RandomState(7);
    const n = 60_001;
    const shapes: Float64Array[] = [
      sample(rng, n, 0),
      sample(rng, n, 3),
      Float64Array.from(sample(rng, n, 0), (x, i) => (i === 17 ? 1e12 : x / 4294967296)), // one outlier
      Float64Array.from(sample(rng, n, 0), (x, i) => (i % 1000 === 0 ? -1e300 : i % 999 === 0 ? 1e300 : x)),
      Float64Array.from(sample(rng, n, 50), (x) => 1 + x * 2 ** -50), // a range of a few ulps
      Float64Array.from(sample(rng, n, 50), (x) => x * 5e-324), // subnormal steps
      Float64Array.from(sample(rng, n, 0), (x) => Math.exp(x / 4294967296 / 0.05)), // heavy right tail
    ];
    const probabilities = [0, 0.01, 0.25, 0.5, 0.75, 0.999, 1];
    for (const a of shapes) {
      const sorted = a.slice().sort();
      const { percentiles, median } = selectStatistics(a.slice(), n, probabilities, true);
      expect(percentiles).toEqual(probabilities.map((p) => percentileSorted(sorted, n, p)));
      expect(median).toBe(sorted[n >> 1]);
    }
  });

  it("is NaN on no values", () => {
    expect(selectStatistics(new Float64Array(0), 0, [0.5], true)).toEqual({ percentiles: [NaN], median: NaN });
  });
});

describe("averagedInterp", () => {
  it("lands mid-tie on repeated quantiles and interpolates between distinct ones", () => {
    const q = Float64Array.of(0, 1, 1, 1, 2);
    const r = references(5);
    const slopes = Float64Array.from({ length: 4 }, (_, j) => (r[j + 1] - r[j]) / (q[j + 1] - q[j]));
    expect(averagedInterp(1, q, r, slopes)).toBe(0.5); // refs 0.25 and 0.75 averaged
    expect(averagedInterp(0.5, q, r, slopes)).toBe(0.125);
    expect(averagedInterp(-3, q, r, slopes)).toBe(0);
    expect(averagedInterp(9, q, r, slopes)).toBe(1);
  });
});
