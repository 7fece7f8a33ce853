/**
 * numpy 1.24's `np.sum` of a contiguous float64 vector, bit for bit: the ufunc machinery
 * hands the add loop buffers of 8192 values, their sums are added in order to a result
 * that starts at 0, and each buffer is summed pairwise (numpy's `pairwise_sum` in
 * numpy/core/src/umath/loops_utils.h.src: below 8 values a plain loop, up to 128 eight
 * interleaved accumulators, above that two halves cut at a multiple of 8). scikit-learn's
 * column statistics come out of this sum when the data has a single column; with several,
 * numpy reduces axis 0 row by row (docs/transforms.md#sums).
 */
const BUFFER = 8192;
const LEAF = 128;

function pairwise(a: Float64Array, start: number, n: number): number {
  if (n < 8) {
    let res = 0;
    for (let i = start; i < start + n; i++) res += a[i];
    return res;
  }
  if (n <= LEAF) {
    let r0 = a[start];
    let r1 = a[start + 1];
    let r2 = a[start + 2];
    let r3 = a[start + 3];
    let r4 = a[start + 4];
    let r5 = a[start + 5];
    let r6 = a[start + 6];
    let r7 = a[start + 7];
    const whole = n - (n % 8);
    let i = 8;
    for (; i < whole; i += 8) {
      const p = start + i;
      r0 += a[p];
      r1 += a[p + 1];
      r2 += a[p + 2];
      r3 += a[p + 3];
      r4 += a[p + 4];
      r5 += a[p + 5];
      r6 += a[p + 6];
      r7 += a[p + 7];
    }
    let res = r0 + r1 + (r2 + r3) + (r4 + r5 + (r6 + r7));
    for (; i < n; i++) res += a[start + i];
    return res;
  }
  let half = Math.floor(n / 2);
  half -= half % 8;
  return pairwise(a, start, half) + pairwise(a, start + half, n - half);
}

/** `np.sum(values)` for a contiguous float64 vector (NaN propagates, as in numpy). */
export function numpySum(values: Float64Array): number {
  let sum = 0;
  for (let start = 0; start < values.length; start += BUFFER) {
    sum += pairwise(values, start, Math.min(BUFFER, values.length - start));
  }
  return sum;
}
