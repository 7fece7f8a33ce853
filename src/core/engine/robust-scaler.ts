/**
 * RobustScaler (docs/transforms.md#robustscaler): center = nanmedian, scale = difference of
 * two nanpercentiles, zero-scale rule, optional unit-variance division by the normal IQR.
 */
import type { Params } from "../contract/params.js";
import { encodeArray, fittedColumns } from "./fitted-number.js";
import type { RobustScalerFitted } from "./fitted-state.js";
import { normalQuantile } from "./normal-quantile.js";
import { copyNonNaN, selectStatistics } from "./percentile.js";
import { centerAndScaleColumns, scaleThenShiftColumns, type AffineSteps } from "./column-kernels.js";
import { checkValues } from "./input-checks.js";
import type { FeatureMatrix, ProgressListener } from "./types.js";
import { nonZeroScale } from "./zero-scale.js";

export function fitRobustScaler(
  params: Params<"RobustScaler">,
  features: FeatureMatrix,
  onProgress?: ProgressListener,
): RobustScalerFitted {
  const { columns, names } = features;
  const width = columns.length;
  const [qMin, qMax] = params.quantile_range;
  const probabilities = params.with_scaling ? [qMin / 100, qMax / 100] : [];
  const adjust = params.unit_variance ? normalQuantile(qMax / 100) - normalQuantile(qMin / 100) : 1;
  const center = new Float64Array(width);
  const scale = new Float64Array(width);
  const scratch = new Float64Array(columns[0].length);
  for (let c = 0; c < width; c++) {
    const m = copyNonNaN(columns[c], scratch);
    if (m < 0) checkValues("RobustScaler", features); // an infinity: this names it and throws
    const stats = selectStatistics(scratch, m, probabilities, params.with_centering);
    center[c] = stats.median;
    if (params.with_scaling) {
      const s = nonZeroScale(stats.percentiles[1] - stats.percentiles[0]);
      scale[c] = params.unit_variance ? s / adjust : s;
    }
    onProgress?.((c + 1) / width);
  }
  return {
    type: "RobustScaler",
    params,
    feature_names_in_: [...names],
    n_features_in_: width,
    center_: params.with_centering ? encodeArray(center) : null,
    scale_: params.with_scaling ? encodeArray(scale) : null,
  };
}

export function applyRobustScaler(fitted: RobustScalerFitted, columns: readonly Float64Array[]): Float64Array[] {
  return centerAndScaleColumns(columns, steps(fitted));
}

/** inverse_transform: `X *= scale_` (with_scaling), then `X += center_` (with_centering). */
export function invertRobustScaler(fitted: RobustScalerFitted, columns: readonly Float64Array[]): Float64Array[] {
  return scaleThenShiftColumns(columns, steps(fitted));
}

/** center_ and scale_ per column, or null where with_centering / with_scaling skip that step. */
function steps(fitted: RobustScalerFitted): AffineSteps {
  const width = fitted.n_features_in_;
  return {
    center: fitted.params.with_centering ? fittedColumns(fitted.center_, width, "center_") : null,
    scale: fitted.params.with_scaling ? fittedColumns(fitted.scale_, width, "scale_") : null,
  };
}
