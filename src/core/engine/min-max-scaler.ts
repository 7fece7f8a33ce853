/**
 * MinMaxScaler (docs/transforms.md#minmaxscaler): scale_ = (b - a) / range with the
 * zero-scale rule, min_ = a - data_min·scale_, output x·scale_ + min_ (that form, for the
 * same last-ulp results), then the optional clip to [a, b] (NaN passes through).
 */
import type { Params } from "../contract/params.js";
import { centerAndScaleColumns } from "./column-kernels.js";
import { asStored, encodeArray, fittedColumns } from "./fitted-number.js";
import type { MinMaxScalerFitted } from "./fitted-state.js";
import { checkValues } from "./input-checks.js";
import type { FeatureMatrix, ProgressListener } from "./types.js";
import { nonZeroScale } from "./zero-scale.js";
import { BOUNDS, mapColumn, reduceThenMap, type BlockMap } from "./simd/column-passes.js";
import { allocColumns, mapColumns } from "./column-alloc.js";

/**
 * Fit and transform one column at a time: the column's bounds, then its scaling, on one
 * copy in the SIMD kernels' memory while it is still in cache (simd/column-passes.ts).
 * The output uses the scale and offset as the fitted state stores them, so it is
 * bit-identical to transformWith's.
 */
export function fitTransformMinMaxScaler(
  params: Params<"MinMaxScaler">,
  features: FeatureMatrix,
  onProgress?: ProgressListener,
): { columns: Float64Array[]; fitted: MinMaxScalerFitted } {
  const { columns, names } = features;
  const width = columns.length;
  const [a, b] = params.feature_range;
  const dataMin = new Float64Array(width);
  const dataMax = new Float64Array(width);
  const range = new Float64Array(width);
  const scale = new Float64Array(width);
  const offset = new Float64Array(width);
  const out = allocColumns(width, columns[0].length);
  for (let c = 0; c < width; c++) {
    reduceThenMap(
      columns[c],
      BOUNDS,
      ({ lo, hi }) => {
        // Untouched bounds mean an all-NaN column, whose nanmin/nanmax (and everything
        // after them) numpy makes NaN; an infinite bound means an infinity, which
        // checkValues names.
        const allMissing = lo === Infinity && hi === -Infinity;
        if (!allMissing && (lo === -Infinity || hi === Infinity)) checkValues("MinMaxScaler", features);
        dataMin[c] = allMissing ? NaN : lo;
        dataMax[c] = allMissing ? NaN : hi;
        range[c] = dataMax[c] - dataMin[c];
        scale[c] = (b - a) / nonZeroScale(range[c]);
        offset[c] = a - dataMin[c] * scale[c];
        return scaling(asStored(scale[c]), asStored(offset[c]), params);
      },
      out[c],
    );
    onProgress?.((c + 1) / width);
  }
  const fitted: MinMaxScalerFitted = {
    type: "MinMaxScaler",
    params,
    feature_names_in_: [...names],
    n_features_in_: width,
    data_min_: encodeArray(dataMin),
    data_max_: encodeArray(dataMax),
    data_range_: encodeArray(range),
    scale_: encodeArray(scale),
    min_: encodeArray(offset),
    n_samples_seen_: columns[0].length,
  };
  return { columns: out, fitted };
}

export function applyMinMaxScaler(fitted: MinMaxScalerFitted, columns: readonly Float64Array[]): Float64Array[] {
  const width = fitted.n_features_in_;
  const scale = fittedColumns(fitted.scale_, width, "scale_");
  const offset = fittedColumns(fitted.min_, width, "min_");
  return mapColumns(columns, (col, c, out) => mapColumn(col, scaling(scale[c], offset[c], fitted.params), out));
}

/** inverse_transform: `X -= min_; X /= scale_` (no clip, as in scikit-learn). */
export function invertMinMaxScaler(fitted: MinMaxScalerFitted, columns: readonly Float64Array[]): Float64Array[] {
  const width = fitted.n_features_in_;
  const scale = fittedColumns(fitted.scale_, width, "scale_");
  const offset = fittedColumns(fitted.min_, width, "min_");
  return centerAndScaleColumns(columns, { center: offset, scale });
}

/** x·s + m, then the clip to [a, b] if asked (NaN passes through it). */
function scaling(s: number, m: number, params: Params<"MinMaxScaler">): BlockMap {
  if (!params.clip) return (kernels, p, len) => kernels.scale_shift(p, len, s, m);
  const [a, b] = params.feature_range;
  return (kernels, p, len) => kernels.scale_shift_clip(p, len, s, m, a, b);
}
