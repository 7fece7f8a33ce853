/** Binarizer (docs/transforms.md#binarizer): 1 where x > threshold (strictly), else 0. Stateless. */
import type { Params } from "../contract/params.js";
import type { BinarizerFitted } from "./fitted-state.js";
import { checkValues } from "./input-checks.js";
import type { FeatureMatrix } from "./types.js";
import { allocColumns, mapColumns } from "./column-alloc.js";

export function fitTransformBinarizer(
  params: Params<"Binarizer">,
  features: FeatureMatrix,
): { columns: Float64Array[]; fitted: BinarizerFitted } {
  const fitted: BinarizerFitted = {
    type: "Binarizer",
    params,
    feature_names_in_: [...features.names],
    n_features_in_: features.columns.length,
  };
  const outs = allocColumns(features.columns.length, features.columns[0].length);
  const columns = features.columns.map((col, c) => binarizeColumn(col, params.threshold, outs[c]));
  // NaN and ±Infinity are both refused: checkValues names the first one and throws.
  if (columns.some((col) => col === null)) checkValues("Binarizer", features);
  return { columns: columns as Float64Array[], fitted };
}

export function applyBinarizer(fitted: BinarizerFitted, columns: readonly Float64Array[]): Float64Array[] {
  return mapColumns(columns, (col, _, out) => {
    if (binarizeColumn(col, fitted.params.threshold, out) === null) {
      throw new Error("Binarizer input was not checked for NaN and infinity");
    }
    return out;
  });
}

/** The binarised column, or null if it holds NaN or ±Infinity. */
function binarizeColumn(col: Float64Array, threshold: number, out: Float64Array): Float64Array | null {
  let nonFinite = false;
  for (let i = 0; i < col.length; i++) {
    const x = col[i];
    if (x - x !== 0) nonFinite = true;
    // +(boolean) compiles without a branch; random data would mispredict a ternary half the time.
    out[i] = +(x > threshold);
  }
  return nonFinite ? null : out;
}
