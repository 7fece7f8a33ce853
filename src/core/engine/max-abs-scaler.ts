/** MaxAbsScaler (docs/transforms.md#maxabsscaler): x / max|x| with the zero-scale rule, no centering. */
import type { Params } from "../contract/params.js";
import { scaleThenShiftColumns } from "./column-kernels.js";
import { asStored, encodeArray, fittedColumns } from "./fitted-number.js";
import type { MaxAbsScalerFitted } from "./fitted-state.js";
import { checkValues } from "./input-checks.js";
import type { FeatureMatrix, ProgressListener } from "./types.js";
import { nonZeroScale } from "./zero-scale.js";
import { ABS_MAX, mapColumn, reduceThenMap, type BlockMap } from "./simd/column-passes.js";
import { allocColumns, mapColumns } from "./column-alloc.js";

/**
 * Each column's max|x|, then its division, on one copy in the SIMD kernels' memory while
 * it is still in cache (simd/column-passes.ts). The division uses scale_ as the fitted
 * state stores it, so the output is bit-identical to transformWith's.
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
  const out = allocColumns(width, columns[0].length);
  for (let c = 0; c < width; c++) {
    reduceThenMap(
      columns[c],
      ABS_MAX,
      ({ hi }) => {
        if (hi === Infinity) checkValues("MaxAbsScaler", features); // names the infinity
        maxAbs[c] = hi < 0 ? NaN : hi; // -1: every value was NaN
        scale[c] = nonZeroScale(maxAbs[c]);
        return dividingBy(asStored(scale[c]));
      },
      out[c],
    );
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

export function applyMaxAbsScaler(fitted: MaxAbsScalerFitted, columns: readonly Float64Array[]): Float64Array[] {
  const scale = fittedColumns(fitted.scale_, fitted.n_features_in_, "scale_");
  return mapColumns(columns, (col, c, out) => mapColumn(col, dividingBy(scale[c]), out));
}

/** inverse_transform: `X *= scale_`. */
export function invertMaxAbsScaler(fitted: MaxAbsScalerFitted, columns: readonly Float64Array[]): Float64Array[] {
  const scale = fittedColumns(fitted.scale_, fitted.n_features_in_, "scale_");
  return scaleThenShiftColumns(columns, { center: null, scale });
}

function dividingBy(s: number): BlockMap {
  return (kernels, p, len) => kernels.divide_by(p, len, s);
}
