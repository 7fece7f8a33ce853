/**
 * Normalizer (sklearn-semantics.md section 5): each row divided by its own l1, l2 or max
 * norm over the feature columns, with the zero-scale rule. Stateless. The data is
 * column-major, so rows are handled in blocks small enough to stay in cache: the norms
 * of a block are accumulated column by column, then the same block is divided, and
 * every input value is read from memory once.
 */
import type { Params } from "../contract/params.js";
import type { NormalizerFitted } from "./fitted-state.js";
import { checkValues } from "./input-checks.js";
import type { FeatureMatrix } from "./types.js";
import { nonZeroScale } from "./zero-scale.js";
import { allocColumn } from "./column-alloc.js";

type Norm = Params<"Normalizer">["norm"];

export function fitTransformNormalizer(
  params: Params<"Normalizer">,
  features: FeatureMatrix,
): { columns: Float64Array[]; fitted: NormalizerFitted } {
  const fitted: NormalizerFitted = {
    type: "Normalizer",
    params,
    feature_names_in_: [...features.names],
    n_features_in_: features.columns.length,
  };
  const { columns, nonFiniteNorm } = normalizeRows(features.columns, params.norm);
  // A NaN or infinite norm comes from NaN or ±Infinity in the row, which checkValues names
  // and refuses; otherwise it was an overflow of Σx², kept as scikit-learn keeps it.
  if (nonFiniteNorm) checkValues("Normalizer", features);
  return { columns, fitted };
}

export function applyNormalizer(fitted: NormalizerFitted, columns: readonly Float64Array[]): Float64Array[] {
  return normalizeRows(columns, fitted.params.norm).columns;
}

function normalizeRows(
  columns: readonly Float64Array[],
  norm: Norm,
): { columns: Float64Array[]; nonFiniteNorm: boolean } {
  const rows = columns[0].length;
  const out = columns.map(() => allocColumn(rows));
  const block = 4096;
  const norms = new Float64Array(block);
  let nonFiniteNorm = false;
  for (let start = 0; start < rows; start += block) {
    const end = Math.min(rows, start + block);
    const len = end - start;
    norms.fill(0);
    for (const col of columns) {
      if (norm === "l1") {
        for (let k = 0; k < len; k++) norms[k] += Math.abs(col[start + k]);
      } else if (norm === "l2") {
        for (let k = 0; k < len; k++) {
          const x = col[start + k];
          norms[k] += x * x;
        }
      } else {
        // Math.max keeps NaN, so a NaN cell shows in its row's norm.
        for (let k = 0; k < len; k++) norms[k] = Math.max(norms[k], Math.abs(col[start + k]));
      }
    }
    for (let k = 0; k < len; k++) {
      const n = norm === "l2" ? Math.sqrt(norms[k]) : norms[k];
      if (n - n !== 0) nonFiniteNorm = true;
      norms[k] = nonZeroScale(n);
    }
    for (let c = 0; c < columns.length; c++) {
      const col = columns[c];
      const o = out[c];
      for (let k = 0; k < len; k++) o[start + k] = col[start + k] / norms[k];
    }
  }
  return { columns: out, nonFiniteNorm };
}
