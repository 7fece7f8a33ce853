/** Binarizer (sklearn-semantics.md section 6): 1 where x > threshold (strictly), else 0. Stateless. */
import type { Params } from "../contract/params.js";
import type { BinarizerFitted } from "./fitted-state.js";
import type { FeatureMatrix } from "./types.js";

export function fitBinarizer(params: Params<"Binarizer">, features: FeatureMatrix): BinarizerFitted {
  return {
    type: "Binarizer",
    params,
    feature_names_in_: [...features.names],
    n_features_in_: features.columns.length,
  };
}

export function applyBinarizer(fitted: BinarizerFitted, columns: readonly Float64Array[]): Float64Array[] {
  const threshold = fitted.params.threshold;
  return columns.map((col) => {
    const out = new Float64Array(col.length);
    for (let i = 0; i < col.length; i++) out[i] = col[i] > threshold ? 1 : 0;
    return out;
  });
}
