/**
 * The fitted state of each transform, as the job result carries it and transformWith
 * reads it back: scikit-learn's attribute names, one array entry per feature column
 * (in feature_names_in_ order), numbers encoded as in ./fitted-number.ts.
 * The schemas validate a state that comes back from a client before it is applied.
 */
import { z } from "zod";
import {
  binarizerParams,
  maxAbsScalerParams,
  minMaxScalerParams,
  normalizerParams,
  powerTransformerParams,
  quantileTransformerParams,
  robustScalerParams,
  standardScalerParams,
} from "../contract/params.js";

export const fittedNumber = z.union([z.number(), z.null(), z.literal("Infinity"), z.literal("-Infinity")]);
const perColumn = z.array(fittedNumber);
const common = {
  feature_names_in_: z.array(z.string()).min(1),
  n_features_in_: z.number().int().min(1),
};

export const binarizerFitted = z.object({
  type: z.literal("Binarizer"),
  params: binarizerParams,
  ...common,
});

export const maxAbsScalerFitted = z.object({
  type: z.literal("MaxAbsScaler"),
  params: maxAbsScalerParams,
  ...common,
  max_abs_: perColumn,
  scale_: perColumn,
  /** Rows seen in fit, NaN rows included (scikit-learn's int). */
  n_samples_seen_: z.number().int(),
});

export const minMaxScalerFitted = z.object({
  type: z.literal("MinMaxScaler"),
  params: minMaxScalerParams,
  ...common,
  data_min_: perColumn,
  data_max_: perColumn,
  data_range_: perColumn,
  scale_: perColumn,
  min_: perColumn,
  n_samples_seen_: z.number().int(),
});

export const normalizerFitted = z.object({
  type: z.literal("Normalizer"),
  params: normalizerParams,
  ...common,
});

export const powerTransformerFitted = z.object({
  type: z.literal("PowerTransformer"),
  params: powerTransformerParams,
  ...common,
  lambdas_: perColumn,
  /** The inner StandardScaler's mean_ and scale_ (scikit-learn's `_scaler`); null without standardize. */
  mean_: perColumn.nullable(),
  scale_: perColumn.nullable(),
});

export const quantileTransformerFitted = z.object({
  type: z.literal("QuantileTransformer"),
  params: quantileTransformerParams,
  ...common,
  n_quantiles_: z.number().int().min(1),
  /** quantiles_[column] holds that column's n_quantiles_ values (scikit-learn's transpose). */
  quantiles_: z.array(perColumn),
  references_: perColumn,
});

export const robustScalerFitted = z.object({
  type: z.literal("RobustScaler"),
  params: robustScalerParams,
  ...common,
  /** null without with_centering. */
  center_: perColumn.nullable(),
  /** null without with_scaling. */
  scale_: perColumn.nullable(),
});

export const standardScalerFitted = z.object({
  type: z.literal("StandardScaler"),
  params: standardScalerParams,
  ...common,
  /** null when both with_mean and with_std are off (scikit-learn's None). */
  mean_: perColumn.nullable(),
  /** null without with_std. */
  var_: perColumn.nullable(),
  /** null without with_std; 1 for constant columns. */
  scale_: perColumn.nullable(),
  /** Non-NaN values per column (scikit-learn collapses equal counts to one int; we never do). */
  n_samples_seen_: z.array(z.number().int()),
});

export const engineFitted = z.discriminatedUnion("type", [
  binarizerFitted,
  maxAbsScalerFitted,
  minMaxScalerFitted,
  normalizerFitted,
  powerTransformerFitted,
  quantileTransformerFitted,
  robustScalerFitted,
  standardScalerFitted,
]);

export type BinarizerFitted = z.infer<typeof binarizerFitted>;
export type MaxAbsScalerFitted = z.infer<typeof maxAbsScalerFitted>;
export type MinMaxScalerFitted = z.infer<typeof minMaxScalerFitted>;
export type NormalizerFitted = z.infer<typeof normalizerFitted>;
export type PowerTransformerFitted = z.infer<typeof powerTransformerFitted>;
export type QuantileTransformerFitted = z.infer<typeof quantileTransformerFitted>;
export type RobustScalerFitted = z.infer<typeof robustScalerFitted>;
export type StandardScalerFitted = z.infer<typeof standardScalerFitted>;
/** The fitted state of any transform, discriminated on `type`. */
export type EngineFitted = z.infer<typeof engineFitted>;
