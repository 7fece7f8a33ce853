/**
 * StandardScaler as scikit-learn 1.2 computes it (docs/transforms.md#standardscaler):
 * NaN-ignoring mean, the corrected two-pass variance (ddof 0), the relative
 * constant-feature test, and (x - mean) / scale.
 */
import type { Params } from "../contract/params.js";
import { centerAndScaleColumns, scaleThenShiftColumns, type AffineSteps } from "./column-kernels.js";
import { encodeArray, fittedColumns } from "./fitted-number.js";
import type { StandardScalerFitted } from "./fitted-state.js";
import { checkValues } from "./input-checks.js";
import { numpySum } from "./numpy-sum.js";
import type { FeatureMatrix, ProgressListener } from "./types.js";

const EPS = 2.220446049250313e-16;

export interface ColumnMoments {
  mean: number;
  /** NaN when not asked for. */
  variance: number;
  count: number;
}

/**
 * Mean and (optionally) variance of the non-NaN values, with the sums numpy makes for
 * scikit-learn's `_incremental_mean_and_var` (`np.nansum(X, axis=0)`): a lone column
 * (`alone`) is a contiguous vector, summed as numpy sums one (numpy-sum.ts); a column
 * of a wider matrix is reduced row by row. Either way the mean matches scikit-learn's bits.
 */
export function columnMoments(col: Float64Array, withVariance: boolean, alone = false): ColumnMoments {
  return alone ? vectorMoments(col, withVariance) : rowOrderMoments(col, withVariance);
}

function rowOrderMoments(col: Float64Array, withVariance: boolean): ColumnMoments {
  const n = col.length;
  let sum = 0;
  let count = 0;
  for (let i = 0; i < n; i++) {
    const x = col[i];
    if (x === x) {
      sum += x;
      count++;
    }
  }
  const mean = sum / count;
  if (!withVariance) return { mean, variance: NaN, count };
  // Chan, Golub and LeVeque's corrected two-pass algorithm: a one-pass E[x²]-E[x]² loses
  // every digit on columns like 1e5 ± 1.
  let correction = 0;
  let squares = 0;
  for (let i = 0; i < n; i++) {
    const x = col[i];
    if (x === x) {
      const d = x - mean;
      correction += d;
      squares += d * d;
    }
  }
  const variance = (squares - (correction * correction) / count) / count;
  return { mean, variance, count };
}

/** The same statistics through numpy's vector sum, NaN counted as 0 as np.nansum does. */
function vectorMoments(col: Float64Array, withVariance: boolean): ColumnMoments {
  const n = col.length;
  const work = new Float64Array(n);
  let count = 0;
  for (let i = 0; i < n; i++) {
    const x = col[i];
    if (x === x) {
      work[i] = x;
      count++;
    }
  }
  const mean = numpySum(work) / count;
  if (!withVariance) return { mean, variance: NaN, count };
  for (let i = 0; i < n; i++) {
    const x = col[i];
    work[i] = x === x ? x - mean : 0;
  }
  const correction = numpySum(work);
  for (let i = 0; i < n; i++) work[i] *= work[i];
  const variance = (numpySum(work) - (correction * correction) / count) / count;
  return { mean, variance, count };
}

/** scikit-learn's _is_constant_feature: zero variance up to rounding relative to the mean. */
export function isConstantFeature(variance: number, mean: number, count: number): boolean {
  return variance <= count * EPS * variance + (count * mean * EPS) ** 2;
}

export function scaleFromVariance(variance: number, mean: number, count: number): number {
  return isConstantFeature(variance, mean, count) ? 1 : Math.sqrt(variance);
}

export function fitStandardScaler(
  params: Params<"StandardScaler">,
  features: FeatureMatrix,
  onProgress?: ProgressListener,
): StandardScalerFitted {
  const { columns, names } = features;
  const width = columns.length;
  const mean = new Float64Array(width);
  const variance = new Float64Array(width);
  const scale = new Float64Array(width);
  const counts: number[] = [];
  for (let c = 0; c < width; c++) {
    const m = columnMoments(columns[c], params.with_std, width === 1);
    // A sum that is not finite means ±Infinity in the column (or, rarely, overflow):
    // checkValues names the infinity, and lets an overflow through as scikit-learn does.
    if (m.mean - m.mean !== 0 && m.count > 0) checkValues("StandardScaler", features);
    mean[c] = m.mean;
    variance[c] = m.variance;
    scale[c] = scaleFromVariance(m.variance, m.mean, m.count);
    counts.push(m.count);
    onProgress?.((c + 1) / width);
  }
  // scikit-learn keeps mean_ whenever either flag is on (the variance needs it).
  const keepMean = params.with_mean || params.with_std;
  return {
    type: "StandardScaler",
    params,
    feature_names_in_: [...names],
    n_features_in_: width,
    mean_: keepMean ? encodeArray(mean) : null,
    var_: params.with_std ? encodeArray(variance) : null,
    scale_: params.with_std ? encodeArray(scale) : null,
    n_samples_seen_: counts,
  };
}

export function applyStandardScaler(fitted: StandardScalerFitted, columns: readonly Float64Array[]): Float64Array[] {
  return centerAndScaleColumns(columns, steps(fitted));
}

/** inverse_transform: `X *= scale_` (with_std), then `X += mean_` (with_mean). */
export function invertStandardScaler(fitted: StandardScalerFitted, columns: readonly Float64Array[]): Float64Array[] {
  return scaleThenShiftColumns(columns, steps(fitted));
}

/** mean_ and scale_ per column, or null where with_mean / with_std skip that step. */
function steps(fitted: StandardScalerFitted): AffineSteps {
  const width = fitted.n_features_in_;
  return {
    center: fitted.params.with_mean ? fittedColumns(fitted.mean_, width, "mean_") : null,
    scale: fitted.params.with_std ? fittedColumns(fitted.scale_, width, "scale_") : null,
  };
}
