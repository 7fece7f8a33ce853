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

export function isPreprocessingType(value: unknown): value is PreprocessingType {
  return typeof value === "string" && (PREPROCESSING_TYPES as readonly string[]).includes(value);
}
