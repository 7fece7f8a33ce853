/**
 * numpy's order statistics on the non-NaN values of a column: percentile ('linear'
 * method, Hyndman-Fan type 7, with numpy's two-sided lerp) and median. When only a few
 * order statistics are needed they are selected (./order-statistics.ts), not sorted for.
 */
import { orderStatistics } from "./order-statistics.js";

/**
 * Copies the non-NaN values of `col` into `scratch` (length >= col.length); returns their
 * count, or -1 as soon as it meets ±Infinity (which no transform accepts).
 */
export function copyNonNaN(col: Float64Array, scratch: Float64Array): number {
  let m = 0;
  for (let i = 0; i < col.length; i++) {
    const x = col[i];
    if (x === x) {
      if (x - x !== 0) return -1;
      scratch[m++] = x;
    }
  }
  return m;
}

/** numpy's _lerp: a + (b-a)·g below g = 0.5, b - (b-a)·(1-g) from 0.5 on (exact at both ends). */
export function lerp(a: number, b: number, g: number): number {
  const d = b - a;
  return g >= 0.5 ? b - d * (1 - g) : a + d * g;
}

/** Where percentile p (a probability in [0, 1]) reads a sorted array of m values. */
export function percentileIndex(m: number, p: number): { lo: number; g: number } {
  const v = (m - 1) * p;
  if (v >= m - 1) return { lo: m - 1, g: 0 };
  const lo = Math.floor(v);
  return { lo, g: v - lo };
}

/** Percentile of sorted values s[0..m). */
export function percentileSorted(s: Float64Array, m: number, p: number): number {
  if (m === 0) return NaN;
  const { lo, g } = percentileIndex(m, p);
  if (lo === m - 1) return s[m - 1];
  return lerp(s[lo], s[lo + 1], g);
}

/**
 * Percentiles (probabilities in [0, 1]) and optionally the median of a[0..m), from only
 * the order statistics they read. Reorders a[0..m).
 */
export function selectStatistics(
  a: Float64Array,
  m: number,
  probabilities: readonly number[],
  withMedian: boolean,
): { percentiles: number[]; median: number } {
  if (m === 0) return { percentiles: probabilities.map(() => NaN), median: NaN };
  const wanted = new Set<number>();
  const reads = probabilities.map((p) => {
    const at = percentileIndex(m, p);
    wanted.add(at.lo);
    if (at.lo < m - 1) wanted.add(at.lo + 1);
    return at;
  });
  const half = m >> 1;
  if (withMedian) {
    wanted.add(half);
    if (m % 2 === 0) wanted.add(half - 1);
  }
  const ranks = [...wanted].sort((x, y) => x - y);
  const values = orderStatistics(a, m, ranks);
  const at = (rank: number) => values[ranks.indexOf(rank)];
  const percentiles = reads.map(({ lo, g }) => (lo === m - 1 ? at(m - 1) : lerp(at(lo), at(lo + 1), g)));
  // numpy's median is the mean of the middle pair, (lo + hi) / 2, not the 50th percentile.
  const median = !withMedian ? NaN : m % 2 === 1 ? at(half) : (at(half - 1) + at(half)) / 2;
  return { percentiles, median };
}
