/**
 * Normalizer (sklearn-semantics.md section 5): each row divided by its own l1, l2 or max
 * norm over the feature columns, with the zero-scale rule. Stateless. The data is
 * column-major, so norms are accumulated column by column into one array per row.
 */
import type { Params } from "../contract/params.js";
import type { NormalizerFitted } from "./fitted-state.js";
import type { FeatureMatrix } from "./types.js";
import { nonZeroScale } from "./zero-scale.js";

export function fitNormalizer(params: Params<"Normalizer">, features: FeatureMatrix): NormalizerFitted {
  return {
    type: "Normalizer",
    params,
    feature_names_in_: [...features.names],
    n_features_in_: features.columns.length,
  };
}

export function applyNormalizer(fitted: NormalizerFitted, columns: readonly Float64Array[]): Float64Array[] {
  const rows = columns[0].length;
  const norms = new Float64Array(rows);
  const norm = fitted.params.norm;
  for (const col of columns) {
    if (norm === "l1") {
      for (let i = 0; i < rows; i++) norms[i] += Math.abs(col[i]);
    } else if (norm === "l2") {
      for (let i = 0; i < rows; i++) norms[i] += col[i] * col[i];
    } else {
      for (let i = 0; i < rows; i++) {
        const x = Math.abs(col[i]);
        if (x > norms[i]) norms[i] = x;
      }
    }
  }
  for (let i = 0; i < rows; i++) {
    norms[i] = nonZeroScale(norm === "l2" ? Math.sqrt(norms[i]) : norms[i]);
  }
  return columns.map((col) => {
    const out = new Float64Array(rows);
    for (let i = 0; i < rows; i++) out[i] = col[i] / norms[i];
    return out;
  });
}
