/**
 * numpy's order statistics on the non-NaN values of a column: percentile ('linear'
 * method, Hyndman-Fan type 7, with numpy's two-sided lerp) and median. Values are found
 * by selection (introselect) on a scratch copy, not by sorting, when only a few are needed.
 */

/** Copies the non-NaN values of `col` into `scratch` (length >= col.length); returns their count. */
export function copyNonNaN(col: Float64Array, scratch: Float64Array): number {
  let m = 0;
  for (let i = 0; i < col.length; i++) {
    const x = col[i];
    if (x === x) scratch[m++] = x;
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
 * Percentiles (probabilities in [0, 1]) and optionally the median of a[0..m), by selecting
 * only the order statistics they read. Reorders a[0..m).
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
  // Select in increasing order: after placing k, everything right of it is >= a[k], so
  // the next search only covers (k, m).
  let from = 0;
  for (const k of [...wanted].sort((x, y) => x - y)) {
    select(a, k, from, m);
    from = k + 1;
  }
  const percentiles = reads.map(({ lo, g }) => (lo === m - 1 ? a[m - 1] : lerp(a[lo], a[lo + 1], g)));
  // numpy's median is the mean of the middle pair, (lo + hi) / 2, not the 50th percentile.
  const median = !withMedian ? NaN : m % 2 === 1 ? a[half] : (a[half - 1] + a[half]) / 2;
  return { percentiles, median };
}

/**
 * Rearranges a[lo..hi) so that a[k] holds the value a sorted copy would have there,
 * smaller-or-equal values before it and greater-or-equal after. Quickselect with a
 * median-of-three pivot and Hoare partitioning (fast on many equal values); falls back to
 * sorting the range if the partitions stop shrinking (introselect), so never quadratic.
 */
export function select(a: Float64Array, k: number, lo: number, hi: number): void {
  let budget = 2 * Math.ceil(Math.log2(hi - lo + 1)) + 8;
  while (hi - lo > 24) {
    if (k === lo) {
      swapMin(a, lo, hi);
      return;
    }
    if (budget-- === 0) {
      a.subarray(lo, hi).sort();
      return;
    }
    const mid = lo + ((hi - lo) >> 1);
    // Order a[lo] <= a[mid] <= a[hi-1]: the ends become sentinels for the scans.
    if (a[mid] < a[lo]) swap(a, mid, lo);
    if (a[hi - 1] < a[lo]) swap(a, hi - 1, lo);
    if (a[hi - 1] < a[mid]) swap(a, hi - 1, mid);
    const pivot = a[mid];
    let i = lo - 1;
    let j = hi;
    for (;;) {
      do i++;
      while (a[i] < pivot);
      do j--;
      while (a[j] > pivot);
      if (i >= j) break;
      const t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
    // a[lo..j] <= pivot <= a[j+1..hi)
    if (k <= j) hi = j + 1;
    else lo = j + 1;
  }
  insertionSort(a, lo, hi);
}

function swapMin(a: Float64Array, lo: number, hi: number): void {
  let at = lo;
  for (let i = lo + 1; i < hi; i++) if (a[i] < a[at]) at = i;
  swap(a, lo, at);
}

function swap(a: Float64Array, i: number, j: number): void {
  const t = a[i];
  a[i] = a[j];
  a[j] = t;
}

function insertionSort(a: Float64Array, lo: number, hi: number): void {
  for (let i = lo + 1; i < hi; i++) {
    const x = a[i];
    let j = i - 1;
    while (j >= lo && a[j] > x) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = x;
  }
}
