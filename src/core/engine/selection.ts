/**
 * Selection of order statistics in place (the k-th smallest value without a full sort),
 * for small ranges and as the fallback of ./order-statistics.ts.
 */

/**
 * Rearranges a[lo..hi) so that a[k] holds the value a sorted copy would have there,
 * smaller-or-equal values before it and greater-or-equal after.
 */
export function select(a: Float64Array, k: number, lo: number, hi: number): void {
  floydRivest(a, k, lo, hi - 1, 0);
}

/**
 * select() for several sorted indices ks[kFrom..kTo): the middle one first over the whole
 * range, then the others inside the part on their side of it.
 */
export function multiSelect(
  a: Float64Array,
  ks: readonly number[],
  kFrom: number,
  kTo: number,
  lo: number,
  hi: number,
): void {
  if (kFrom >= kTo) return;
  const mid = (kFrom + kTo) >> 1;
  const k = ks[mid];
  select(a, k, lo, hi);
  multiSelect(a, ks, kFrom, mid, lo, k);
  multiSelect(a, ks, mid + 1, kTo, k + 1, hi);
}

/**
 * Floyd and Rivest's SELECT (CACM 1975, algorithm 489) on a[left..right] inclusive: the
 * pivot is chosen by first selecting within a small sample around the expected position
 * of k, so one partition pass nearly finishes the job (~n + min(k, n-k) comparisons).
 * Scans stop on values equal to the pivot, so many equal values stay cheap; after 64
 * rounds (never seen in practice) the range is sorted instead.
 */
function floydRivest(a: Float64Array, k: number, left: number, right: number, depth: number): void {
  let rounds = 0;
  while (right > left) {
    if (k === left || k === right) {
      if (k === left) swapMin(a, left, right + 1);
      else swapMax(a, left, right + 1);
      return;
    }
    if (++rounds > 64 || depth > 64) {
      a.subarray(left, right + 1).sort();
      return;
    }
    if (right - left > 600) {
      const n = right - left + 1;
      const i = k - left + 1;
      const z = Math.log(n);
      const s = 0.5 * Math.exp((2 * z) / 3);
      const sd = 0.5 * Math.sqrt((z * s * (n - s)) / n) * (i - n / 2 < 0 ? -1 : 1);
      const newLeft = Math.max(left, Math.floor(k - (i * s) / n + sd));
      const newRight = Math.min(right, Math.floor(k + ((n - i) * s) / n + sd));
      floydRivest(a, k, newLeft, newRight, depth + 1);
    }
    const t = a[k];
    let i = left;
    let j = right;
    swap(a, left, k);
    if (a[right] > t) swap(a, left, right);
    while (i < j) {
      swap(a, i, j);
      i++;
      j--;
      while (a[i] < t) i++;
      while (a[j] > t) j--;
    }
    if (a[left] === t) {
      swap(a, left, j);
    } else {
      j++;
      swap(a, j, right);
    }
    if (j <= k) left = j + 1;
    if (k <= j) right = j - 1;
  }
}

function swapMax(a: Float64Array, lo: number, hi: number): void {
  let at = lo;
  for (let i = lo + 1; i < hi; i++) if (a[i] > a[at]) at = i;
  swap(a, hi - 1, at);
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
