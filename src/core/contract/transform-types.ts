/** The eight preprocessing types of the interface, in its order. */
export const PREPROCESSING_TYPES = [
  "Binarizer",
  "MaxAbsScaler",
  "MinMaxScaler",
  "Normalizer",
  "PowerTransformer",
  "QuantileTransformer",
  "RobustScaler",
  "StandardScaler",
] as const;

export type PreprocessingType = (typeof PREPROCESSING_TYPES)[number];

/**
 * Transforms that refuse a missing value (NaN), naming its cell, as scikit-learn's
 * check_array does for them; the others ignore NaN when fitting and leave it NaN in the
 * output, as scikit-learn's scalers do. The engine and the client's checks before
 * sending read this one list.
 */
const REFUSE_MISSING: readonly PreprocessingType[] = ["Binarizer", "Normalizer"];

/** Whether `type` accepts missing values (NaN). */
export function allowsMissing(type: PreprocessingType): boolean {
  return !REFUSE_MISSING.includes(type);
}

export function isPreprocessingType(value: unknown): value is PreprocessingType {
  return typeof value === "string" && (PREPROCESSING_TYPES as readonly string[]).includes(value);
}
