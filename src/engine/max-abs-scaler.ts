/** MaxAbsScaler (sklearn-semantics.md section 3): x / max|x| with the zero-scale rule, no centering. */
import type { Params } from "../contract/params.js";
import { encodeArray, fittedColumns } from "./fitted-number.js";
import type { MaxAbsScalerFitted } from "./fitted-state.js";
import { checkValues } from "./input-checks.js";
import type { FeatureMatrix, ProgressListener } from "./types.js";
import { nonZeroScale } from "./zero-scale.js";
import { allocColumn } from "./column-alloc.js";

export function fitMaxAbsScaler(
  params: Params<"MaxAbsScaler">,
  features: FeatureMatrix,
  onProgress?: ProgressListener,
): MaxAbsScalerFitted {
  const { columns, names } = features;
  const width = columns.length;
  const maxAbs = new Float64Array(width);
  const scale = new Float64Array(width);
  for (let c = 0; c < width; c++) {
    const col = columns[c];
    let hi = -1;
    for (let i = 0; i < col.length; i++) {
      const x = Math.abs(col[i]);
      if (x > hi) hi = x; // NaN never compares greater: ignored
    }
    if (hi === Infinity) checkValues("MaxAbsScaler", features); // names the infinity
    maxAbs[c] = hi < 0 ? NaN : hi;
    scale[c] = nonZeroScale(maxAbs[c]);
    onProgress?.((c + 1) / width);
  }
  return {
    type: "MaxAbsScaler",
    params,
    feature_names_in_: [...names],
    n_features_in_: width,
    max_abs_: encodeArray(maxAbs),
    scale_: encodeArray(scale),
    n_samples_seen_: columns[0].length,
  };
}

export function applyMaxAbsScaler(fitted: MaxAbsScalerFitted, columns: readonly Float64Array[]): Float64Array[] {
  const scale = fittedColumns(fitted.scale_, fitted.n_features_in_, "scale_");
  return columns.map((col, c) => {
    const s = scale[c];
    const out = allocColumn(col.length);
    for (let i = 0; i < col.length; i++) out[i] = col[i] / s;
    return out;
  });
}
