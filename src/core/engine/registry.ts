/**
 * One entry per transform: how it fits and transforms, re-applies a fitted state, and
 * inverts it. Whether it accepts missing values is the contract's (allowsMissing).
 */
import type { Params } from "../contract/params.js";
import type { PreprocessingType } from "../contract/transform-types.js";
import type { EngineFitted } from "./fitted-state.js";
import { applyBinarizer, fitTransformBinarizer } from "./binarizer.js";
import { applyMaxAbsScaler, fitTransformMaxAbsScaler, invertMaxAbsScaler } from "./max-abs-scaler.js";
import { applyMinMaxScaler, fitTransformMinMaxScaler, invertMinMaxScaler } from "./min-max-scaler.js";
import { applyNormalizer, fitTransformNormalizer } from "./normalizer.js";
import { applyPowerTransformer, fitTransformPowerTransformer, invertPowerTransformer } from "./power-transformer.js";
import { applyQuantileTransformer, fitQuantileTransformer, invertQuantileTransformer } from "./quantile-transformer.js";
import { applyRobustScaler, fitRobustScaler, invertRobustScaler } from "./robust-scaler.js";
import { applyStandardScaler, fitStandardScaler, invertStandardScaler } from "./standard-scaler.js";
import type { EngineWarning, FeatureMatrix, ProgressListener } from "./types.js";

export type FittedOf<T extends PreprocessingType> = Extract<EngineFitted, { type: T }>;

export interface TransformImpl<T extends PreprocessingType> {
  fitTransform(
    params: Params<T>,
    features: FeatureMatrix,
    onProgress?: ProgressListener,
  ): { columns: Float64Array[]; fitted: FittedOf<T>; notices?: EngineWarning[] };
  transform(fitted: FittedOf<T>, columns: readonly Float64Array[]): Float64Array[];
  /**
   * scikit-learn's inverse_transform, or why there is none (Binarizer and Normalizer
   * throw away what an inverse would need).
   */
  inverse: ((fitted: FittedOf<T>, columns: readonly Float64Array[]) => Float64Array[]) | { readonly none: string };
  /**
   * fitTransform notices ±Infinity (and NaN where it is refused) in its own first pass
   * and then calls checkValues to name it, so index.ts skips the separate scan: one pass
   * fewer over the data for the memory-bound transforms.
   */
  checksOwnValues?: boolean;
}

/**
 * fit, then the very transform that transformWith runs, on the fitted state as it will be
 * serialised: that is what makes the two outputs bit-identical.
 */
function fitThenApply<T extends PreprocessingType>(
  fit: (params: Params<T>, features: FeatureMatrix, onProgress?: ProgressListener) => FittedOf<T>,
  transform: (fitted: FittedOf<T>, columns: readonly Float64Array[]) => Float64Array[],
  inverse: TransformImpl<T>["inverse"],
  checksOwnValues = false,
): TransformImpl<T> {
  return {
    checksOwnValues,
    inverse,
    fitTransform(params, features, onProgress) {
      const fitted = fit(params, features, onProgress);
      return { fitted, columns: transform(fitted, features.columns) };
    },
    transform,
  };
}

export const transforms: { readonly [T in PreprocessingType]: TransformImpl<T> } = {
  Binarizer: {
    fitTransform: fitTransformBinarizer,
    transform: applyBinarizer,
    inverse: { none: "it keeps only which side of the threshold each value was on" },
    checksOwnValues: true,
  },
  MaxAbsScaler: {
    fitTransform: fitTransformMaxAbsScaler,
    transform: applyMaxAbsScaler,
    inverse: invertMaxAbsScaler,
    checksOwnValues: true,
  },
  MinMaxScaler: {
    fitTransform: fitTransformMinMaxScaler,
    transform: applyMinMaxScaler,
    inverse: invertMinMaxScaler,
    checksOwnValues: true,
  },
  Normalizer: {
    fitTransform: fitTransformNormalizer,
    transform: applyNormalizer,
    inverse: { none: "it does not keep the norm it divided each row by" },
    checksOwnValues: true,
  },
  // Fitting already computes every transformed value; it standardises from the encoded
  // state like applyPowerTransformer, so the two still agree bit for bit.
  PowerTransformer: {
    fitTransform: fitTransformPowerTransformer,
    transform: applyPowerTransformer,
    inverse: invertPowerTransformer,
  },
  QuantileTransformer: fitThenApply(fitQuantileTransformer, applyQuantileTransformer, invertQuantileTransformer),
  RobustScaler: fitThenApply(fitRobustScaler, applyRobustScaler, invertRobustScaler, true),
  StandardScaler: fitThenApply(fitStandardScaler, applyStandardScaler, invertStandardScaler, true),
};
