/** MaxAbsScaler (sklearn-semantics.md section 3): x / max|x| with the zero-scale rule, no centering. */
import type { Params } from "../contract/params.js";
import { centerAndScale } from "./column-kernels.js";
import { asStored, encodeArray, fittedColumns } from "./fitted-number.js";
import type { MaxAbsScalerFitted } from "./fitted-state.js";
import { checkValues } from "./input-checks.js";
import type { FeatureMatrix, ProgressListener } from "./types.js";
import { nonZeroScale } from "./zero-scale.js";

/**
 * Each column is divided right after its max|x| is found, while a 100,000-row column
 * (800 KB) is still in the L2 cache: the data comes from memory once, not twice. The
 * division uses scale_ as the fitted state stores it, so the output is bit-identical to
 * transformWith's.
 */
export function fitTransformMaxAbsScaler(
  params: Params<"MaxAbsScaler">,
  features: FeatureMatrix,
  onProgress?: ProgressListener,
): { columns: Float64Array[]; fitted: MaxAbsScalerFitted } {
  const { columns, names } = features;
  const width = columns.length;
  const maxAbs = new Float64Array(width);
  const scale = new Float64Array(width);
  const out: Float64Array[] = new Array(width);
  for (let c = 0; c < width; c++) {
    const hi = columnMaxAbs(columns[c]);
    if (hi === Infinity) checkValues("MaxAbsScaler", features); // names the infinity
    maxAbs[c] = hi < 0 ? NaN : hi;
    scale[c] = nonZeroScale(maxAbs[c]);
    out[c] = centerAndScale(columns[c], null, asStored(scale[c]));
    onProgress?.((c + 1) / width);
  }
  const fitted: MaxAbsScalerFitted = {
    type: "MaxAbsScaler",
    params,
    feature_names_in_: [...names],
    n_features_in_: width,
    max_abs_: encodeArray(maxAbs),
    scale_: encodeArray(scale),
    n_samples_seen_: columns[0].length,
  };
  return { columns: out, fitted };
}

/**
 * max|x| ignoring NaN (which never compares greater), or -1 when every value is NaN.
 * Four independent lanes, so no comparison waits for the one before.
 */
function columnMaxAbs(col: Float64Array): number {
  let hi0 = -1;
  let hi1 = -1;
  let hi2 = -1;
  let hi3 = -1;
  const n = col.length;
  let i = 0;
  for (; i + 3 < n; i += 4) {
    const w = Math.abs(col[i]);
    const x = Math.abs(col[i + 1]);
    const y = Math.abs(col[i + 2]);
    const z = Math.abs(col[i + 3]);
    if (w > hi0) hi0 = w;
    if (x > hi1) hi1 = x;
    if (y > hi2) hi2 = y;
    if (z > hi3) hi3 = z;
  }
  for (; i < n; i++) {
    const x = Math.abs(col[i]);
    if (x > hi0) hi0 = x;
  }
  return Math.max(hi0, hi1, hi2, hi3);
}

export function applyMaxAbsScaler(fitted: MaxAbsScalerFitted, columns: readonly Float64Array[]): Float64Array[] {
  const scale = fittedColumns(fitted.scale_, fitted.n_features_in_, "scale_");
  return columns.map((col, c) => centerAndScale(col, null, scale[c]));
}
