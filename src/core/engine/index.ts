/**
 * The preprocessing engine: the eight scikit-learn transforms on Float64Array columns.
 * Pure: no I/O, the input is never mutated, every failure caused by the data is an
 * EngineError whose message names the column and says how to fix it. Output columns are
 * new, and a result's columns may share ArrayBuffers, each its own range (allocColumns):
 * read `col.buffer` with `col.byteOffset` and `col.byteLength`.
 *
 * @example
 * const { columns, fitted } = fitTransform("StandardScaler", {}, { names: ["a"], columns: [a] });
 * const scaledTest = transformWith(fitted, { names: ["a"], columns: [aTest] });
 * const backInUnits = inverseTransformWith(fitted, { names: ["a"], columns: [scaledTest[0]] });
 */
import { explainIssues, explanationText } from "../errors/zod-issues.js";
import { explainParamIssues } from "../contract/param-issues.js";
import { paramsSchemas, type Params, type ParamsInput } from "../contract/params.js";
import type { PreprocessingType } from "../contract/transform-types.js";
import { EngineError } from "./engine-error.js";
import { engineFitted, type EngineFitted } from "./fitted-state.js";
import { FittedStateError } from "./fitted-number.js";
import { checkFeatures, checkShape, checkValues } from "./input-checks.js";
import { transforms, type FittedOf, type TransformImpl } from "./registry.js";
import { sklearnWarnings } from "./sklearn-warnings.js";
import type {
  FeatureMatrix,
  FitTransform,
  FitTransformResult,
  FittedState,
  ProgressListener,
  TransformWith,
} from "./types.js";

export { EngineError } from "./engine-error.js";
export * from "./fitted-state.js";
export type { FittedNumber } from "./fitted-number.js";
export { decodeNumber, encodeNumber } from "./fitted-number.js";
export type * from "./types.js";
export type { FittedOf } from "./registry.js";
export { OWN_WARNING_CODES, WARNING_CODES, type EngineWarning, type WarningCode } from "./types.js";

/**
 * Fits `type` on the feature columns and transforms them, as scikit-learn's
 * `fit_transform`. `params` may omit keys (scikit-learn's defaults fill them).
 * Calls `onProgress` with fractions in [0, 1] as columns are fitted. `warnings` holds
 * what scikit-learn 1.2.1 would warn on the same data and parameters (docs/warnings.md).
 */
export function fitTransform<T extends PreprocessingType>(
  type: T,
  params: Params<T> | ParamsInput<T>,
  features: FeatureMatrix,
  onProgress?: ProgressListener,
): FitTransformResult & { readonly fitted: FittedOf<T> } {
  const parsed = paramsSchemas[type].safeParse(params);
  if (!parsed.success) {
    const problems = explainParamIssues(type, parsed.error.issues, params);
    throw new EngineError(`Invalid ${type} parameters: ${problems.map((p) => p.message).join("; ")}`);
  }
  checkShape(type, features);
  const impl = transforms[type];
  if (!impl.checksOwnValues) checkValues(type, features);
  const result = impl.fitTransform(parsed.data as never, features, onProgress);
  onProgress?.(1);
  const { columns, fitted, notices = [] } = result;
  // mdps's own notices from the fit itself come after scikit-learn's warnings
  return { columns, fitted, warnings: [...sklearnWarnings(parsed.data, features, fitted, columns), ...notices] };
}

/**
 * Applies a fitted state (from fitTransform, possibly after a JSON round trip) to new
 * data with the same feature columns. On the data it was fitted on, the output is
 * bit-identical to fitTransform's.
 */
export function transformWith(fitted: FittedState | EngineFitted, features: FeatureMatrix): Float64Array[] {
  const state = fittedFor(fitted, features);
  // Each registry entry's transform takes its own type's state; `state.type` picked the entry, so they match.
  const impl: Pick<TransformImpl<PreprocessingType>, "transform"> = transforms[state.type];
  return explainingStateErrors(state, () => impl.transform(state, features.columns));
}

/**
 * scikit-learn's inverse_transform: maps transformed values (a model's predictions in
 * scaled units, say) back to the units of the data the state was fitted on. Missing
 * values stay missing. Binarizer and Normalizer have none, as in scikit-learn.
 */
export function inverseTransformWith(fitted: FittedState | EngineFitted, features: FeatureMatrix): Float64Array[] {
  const state = fittedFor(fitted, features);
  const inverse = transforms[state.type].inverse;
  if (typeof inverse !== "function") {
    throw new EngineError(
      `${state.type} has no inverse_transform (scikit-learn's has none either): ${inverse.none}, so the original values cannot be recovered.`,
    );
  }
  return explainingStateErrors(state, () => (inverse as ApplyState)(state, features.columns));
}

type ApplyState = (fitted: EngineFitted, columns: readonly Float64Array[]) => Float64Array[];

/** The fitted state, validated, and the data checked against it (names, order, values). */
function fittedFor(fitted: FittedState | EngineFitted, features: FeatureMatrix): EngineFitted {
  const parsed = engineFitted.safeParse(fitted);
  if (!parsed.success) {
    throw new EngineError(`The fitted state is not valid: ${explanationText(explainIssues(parsed.error.issues))}`);
  }
  const state = parsed.data;
  const expected = state.feature_names_in_;
  if (state.n_features_in_ !== expected.length) {
    throw new EngineError(
      `The fitted state is not valid: n_features_in_ is ${state.n_features_in_} but feature_names_in_ has ${expected.length} names.`,
    );
  }
  if (features.columns.length !== expected.length || features.names.some((name, i) => name !== expected[i])) {
    throw new EngineError(
      `The data has feature columns [${features.names.join(", ")}] but the ${state.type} was fitted on [${expected.join(", ")}]: pass the same feature columns in the same order.`,
    );
  }
  checkFeatures(state.type, features);
  return state;
}

function explainingStateErrors(state: EngineFitted, apply: () => Float64Array[]): Float64Array[] {
  try {
    return apply();
  } catch (error) {
    if (error instanceof FittedStateError) {
      throw new EngineError(`The fitted ${state.type} state cannot be applied: ${error.message}.`);
    }
    throw error;
  }
}

fitTransform satisfies FitTransform;
transformWith satisfies TransformWith;
inverseTransformWith satisfies TransformWith;
