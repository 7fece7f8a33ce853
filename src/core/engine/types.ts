import type { FittedStateJson, Params, PreprocessingType } from "../contract/index.js";

export const WARNING_CODES = [
  "n_quantiles_capped",
  "ignore_implicit_zeros",
  "all_missing_column",
  "overflow",
  "near_constant",
  "lambda_optimum_unreachable",
] as const;
export type WarningCode = (typeof WARNING_CODES)[number];
/** The codes mdps gives where scikit-learn 1.2.1 says nothing (docs/warnings.md#mdpss-own-notices). */
export const OWN_WARNING_CODES: readonly WarningCode[] = ["near_constant", "lambda_optimum_unreachable"];

/**
 * One of scikit-learn's warnings (a stable code, a message that quotes scikit-learn) or one
 * of mdps's own notices; the column, or null for the whole job.
 */
export interface EngineWarning {
  readonly code: WarningCode;
  readonly message: string;
  readonly column: string | null;
}

/**
 * Feature data, column-major: one Float64Array per feature column, NaN = missing.
 * The engine never mutates its input.
 */
export interface FeatureMatrix {
  readonly names: readonly string[];
  readonly columns: readonly Float64Array[];
}

/** The fitted state of one transform, JSON-ready (NaN written as null). */
export type FittedState = FittedStateJson;

export interface FitTransformResult {
  readonly columns: Float64Array[];
  readonly fitted: FittedState;
  /** scikit-learn 1.2.1's warnings on the same data and parameters, and mdps's own notices. */
  readonly warnings: readonly EngineWarning[];
}

/** Reports fractional progress (0..1) of a long fit or transform. */
export type ProgressListener = (fraction: number) => void;

/** Signature of the engine's entry points (implemented in ./index.ts). */
export type FitTransform = <T extends PreprocessingType>(
  type: T,
  params: Params<T>,
  features: FeatureMatrix,
  onProgress?: ProgressListener,
) => FitTransformResult;

export type TransformWith = (fitted: FittedState, features: FeatureMatrix) => Float64Array[];
