/** One entry per transform: how it fits and transforms, and how it re-applies a fitted state. */
import type { Params } from "../contract/params.js";
import type { PreprocessingType } from "../contract/transform-types.js";
import { EngineError } from "./engine-error.js";
import type { EngineFitted } from "./fitted-state.js";
import { applyStandardScaler, fitStandardScaler } from "./standard-scaler.js";
import type { FeatureMatrix, ProgressListener } from "./types.js";

export type FittedOf<T extends PreprocessingType> = Extract<EngineFitted, { type: T }>;

export interface TransformImpl<T extends PreprocessingType> {
  fitTransform(
    params: Params<T>,
    features: FeatureMatrix,
    onProgress?: ProgressListener,
  ): { columns: Float64Array[]; fitted: FittedOf<T> };
  transform(fitted: FittedOf<T>, columns: readonly Float64Array[]): Float64Array[];
}

/**
 * fit, then the very transform that transformWith runs, on the fitted state as it will be
 * serialised: that is what makes the two outputs bit-identical.
 */
function fitThenApply<T extends PreprocessingType>(
  fit: (params: Params<T>, features: FeatureMatrix, onProgress?: ProgressListener) => FittedOf<T>,
  transform: (fitted: FittedOf<T>, columns: readonly Float64Array[]) => Float64Array[],
): TransformImpl<T> {
  return {
    fitTransform(params, features, onProgress) {
      const fitted = fit(params, features, onProgress);
      return { fitted, columns: transform(fitted, features.columns) };
    },
    transform,
  };
}

function notYet<T extends PreprocessingType>(type: T): TransformImpl<T> {
  const fail = (): never => {
    throw new EngineError(`${type} is not implemented yet`);
  };
  return { fitTransform: fail, transform: fail };
}

export const transforms: { readonly [T in PreprocessingType]: TransformImpl<T> } = {
  Binarizer: notYet("Binarizer"),
  MaxAbsScaler: notYet("MaxAbsScaler"),
  MinMaxScaler: notYet("MinMaxScaler"),
  Normalizer: notYet("Normalizer"),
  PowerTransformer: notYet("PowerTransformer"),
  QuantileTransformer: notYet("QuantileTransformer"),
  RobustScaler: notYet("RobustScaler"),
  StandardScaler: fitThenApply(fitStandardScaler, applyStandardScaler),
};
