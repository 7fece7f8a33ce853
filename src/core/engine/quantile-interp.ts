/**
 * QuantileTransformer's forward transform of one column, step for step as scikit-learn's
 * _transform_col: bounds (exact equality for uniform output, ±1e-7 in data units for
 * normal), the average of numpy.interp forwards and of interp on the negated, reversed
 * arrays (so a value repeated in the quantiles lands mid-tie), upper bound then lower,
 * then for normal output Φ⁻¹ clipped to scikit-learn's asymmetric constants. And its
 * inverse, the same function with inverse=True (docs/transforms.md#quantile-transform,
 * #quantile-inverse).
 */
import { normalCdf } from "./normal-cdf.js";
import { normalQuantile } from "./normal-quantile.js";

const BOUNDS_THRESHOLD = 1e-7;
/** norm.ppf(1e-7 - eps) and norm.ppf(1 - (1e-7 - eps)) as scipy computes them. */
export const CLIP_MIN = -5.199337582605575;
export const CLIP_MAX = 5.19933758270342;

/** One column's fitted quantiles, the shared references_, and whether the output is normal. */
export interface QuantileColumnFit {
  readonly q: Float64Array;
  readonly r: Float64Array;
  readonly normal: boolean;
}

export function quantileTransformColumn(
  col: Float64Array,
  { q, r, normal }: QuantileColumnFit,
  out: Float64Array,
): Float64Array {
  const n = q.length;
  const first = q[0];
  const last = q[n - 1];
  if (first !== first) return out.fill(NaN); // fitted on an all-NaN column
  const slopes = new Float64Array(Math.max(n - 1, 0));
  for (let j = 0; j < n - 1; j++) slopes[j] = (r[j + 1] - r[j]) / (q[j + 1] - q[j]);
  for (let i = 0; i < col.length; i++) {
    const x = col[i];
    if (x !== x) {
      out[i] = NaN;
    } else if (!normal) {
      out[i] = x === first ? 0 : x === last ? 1 : averagedInterp(x, q, r, slopes);
    } else {
      const u = x - BOUNDS_THRESHOLD < first ? 0 : x + BOUNDS_THRESHOLD > last ? 1 : averagedInterp(x, q, r, slopes);
      const z = normalQuantile(u);
      out[i] = z < CLIP_MIN ? CLIP_MIN : z > CLIP_MAX ? CLIP_MAX : z;
    }
  }
  return out;
}

/**
 * 0.5·(interp(x, q, r) - interp(-x, -q[::-1], -r[::-1])), with the second interp worked out
 * on the original arrays: negation is exact, so every intermediate has the same bits.
 * slopes[j] = (r[j+1]-r[j]) / (q[j+1]-q[j]) serves both directions.
 */
export function averagedInterp(x: number, q: Float64Array, r: Float64Array, slopes: Float64Array): number {
  const n = q.length;
  if (x < q[0]) return 0.5 * (r[0] + r[0]);
  if (x > q[n - 1]) return 0.5 * (r[n - 1] + r[n - 1]);
  const j = lastAtMost(q, x);
  let forward: number;
  let m: number; // the smallest index with q[m] >= x: where the reversed pass lands
  if (q[j] === x) {
    forward = r[j];
    m = firstAtLeast(q, x, j);
  } else {
    forward = lineAt(slopes[j], x, q[j], r[j], q[j + 1], r[j + 1]);
    m = j + 1;
  }
  let backward: number;
  if (m === 0 || q[m] === x) {
    backward = -r[m];
  } else {
    const s = slopes[m - 1];
    backward = s * (q[m] - x) - r[m];
    if (backward !== backward) {
      backward = s * (q[m - 1] - x) - r[m - 1];
      if (backward !== backward && r[m] === r[m - 1]) backward = -r[m];
    }
  }
  return 0.5 * (forward - backward);
}

/** numpy.interp between two points, with its retry from the right when the left gives NaN. */
function lineAt(slope: number, x: number, x0: number, y0: number, x1: number, y1: number): number {
  let y = slope * (x - x0) + y0;
  if (y !== y) {
    y = slope * (x - x1) + y1;
    if (y !== y && y0 === y1) y = y0;
  }
  return y;
}

/** The smallest index m <= j with q[m] >= x, given q[j] === x. */
function firstAtLeast(q: Float64Array, x: number, j: number): number {
  if (j === 0 || q[j - 1] < x) return j;
  if (q[0] >= x) return 0;
  let lo = 0;
  let hi = j; // q[lo] < x <= q[hi]
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (q[mid] < x) lo = mid;
    else hi = mid;
  }
  return hi;
}

/**
 * QuantileTransformer's inverse of one column, as scikit-learn's _transform_col with
 * inverse=True: for normal output Φ first; the bounds (within 1e-7 of 0 or 1 for normal
 * output, exactly 0 or 1 for uniform) go to the first and last quantile, the rest
 * through numpy.interp(u, references_, quantiles); NaN stays NaN.
 */
export function inverseQuantileColumn(
  col: Float64Array,
  { q, r, normal }: QuantileColumnFit,
  out: Float64Array,
): Float64Array {
  const n = q.length;
  const slopes = new Float64Array(Math.max(n - 1, 0));
  for (let j = 0; j < n - 1; j++) slopes[j] = (q[j + 1] - q[j]) / (r[j + 1] - r[j]);
  for (let i = 0; i < col.length; i++) {
    const u = normal ? normalCdf(col[i]) : col[i];
    if (u !== u) out[i] = NaN;
    else if (normal ? u - BOUNDS_THRESHOLD < 0 : u === 0) out[i] = q[0];
    else if (normal ? u + BOUNDS_THRESHOLD > 1 : u === 1) out[i] = q[n - 1];
    else out[i] = interp(u, r, q, slopes);
  }
  return out;
}

/** numpy.interp(x, xp, fp) for one x that is not NaN; slopes[j] = (fp[j+1]-fp[j]) / (xp[j+1]-xp[j]). */
function interp(x: number, xp: Float64Array, fp: Float64Array, slopes: Float64Array): number {
  const n = xp.length;
  if (x < xp[0]) return fp[0];
  if (x >= xp[n - 1]) return fp[n - 1];
  const j = lastAtMost(xp, x);
  return xp[j] === x ? fp[j] : lineAt(slopes[j], x, xp[j], fp[j], xp[j + 1], fp[j + 1]);
}

/**
 * The largest index j with sorted[j] <= x, for sorted[0] <= x (numpy's
 * binary_search_with_guess result), by a branch-free binary search: random data would
 * mispredict every step of a branchy one.
 */
function lastAtMost(sorted: Float64Array, x: number): number {
  let j = 0;
  let len = sorted.length;
  while (len > 1) {
    const half = len >>> 1;
    j += +(sorted[j + half] <= x) * half;
    len -= half;
  }
  return j;
}
