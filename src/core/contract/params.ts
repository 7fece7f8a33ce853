/**
 * Parameters of each transform: scikit-learn 1.2's constructor parameters, snake_case,
 * with its defaults and its rejected values. The service validates submissions with
 * these schemas and the client validates before sending, so the two cannot drift.
 *
 * Where JSON differs from Python: tuples (`feature_range`, `quantile_range`) arrive as
 * two-element arrays; booleans must be JSON booleans (scikit-learn's deprecated
 * acceptance of ints is not carried over).
 */
import { z } from "zod";
import type { PreprocessingType } from "./transform-types.js";

const copy = z.boolean().default(true);
const flag = (fallback: boolean) => z.boolean().default(fallback);
const pair = z.tuple([z.number(), z.number()]);

export const binarizerParams = z.strictObject({
  threshold: z.number().default(0),
  copy,
});

export const maxAbsScalerParams = z.strictObject({ copy });

export const minMaxScalerParams = z
  .strictObject({
    feature_range: pair.default([0, 1]),
    copy,
    clip: flag(false),
  })
  .refine((p) => p.feature_range[0] < p.feature_range[1], {
    path: ["feature_range"],
    message: "Minimum of desired feature range must be smaller than maximum.",
  });

export const normalizerParams = z.strictObject({
  norm: z.enum(["l1", "l2", "max"]).default("l2"),
  copy,
});

export const powerTransformerParams = z.strictObject({
  method: z.enum(["yeo-johnson", "box-cox"]).default("yeo-johnson"),
  standardize: flag(true),
  copy,
});

export const quantileTransformerParams = z
  .strictObject({
    n_quantiles: z.number().int().min(1).default(1000),
    output_distribution: z.enum(["uniform", "normal"]).default("uniform"),
    ignore_implicit_zeros: flag(false),
    subsample: z.number().int().min(1).default(10_000),
    random_state: z
      .number()
      .int()
      .min(0)
      .max(2 ** 32 - 1)
      .nullable()
      .default(null),
    copy,
  })
  .refine((p) => p.n_quantiles <= p.subsample, {
    path: ["n_quantiles"],
    message: "The number of quantiles cannot be greater than the number of samples used (subsample).",
  });

export const robustScalerParams = z
  .strictObject({
    with_centering: flag(true),
    with_scaling: flag(true),
    quantile_range: pair.default([25, 75]),
    copy,
    unit_variance: flag(false),
  })
  .refine(({ quantile_range: [lo, hi] }) => 0 <= lo && lo <= hi && hi <= 100, {
    path: ["quantile_range"],
    message: "Invalid quantile range: need 0 <= q_min <= q_max <= 100.",
  });

export const standardScalerParams = z.strictObject({
  with_mean: flag(true),
  with_std: flag(true),
  copy,
});

export const paramsSchemas = {
  Binarizer: binarizerParams,
  MaxAbsScaler: maxAbsScalerParams,
  MinMaxScaler: minMaxScalerParams,
  Normalizer: normalizerParams,
  PowerTransformer: powerTransformerParams,
  QuantileTransformer: quantileTransformerParams,
  RobustScaler: robustScalerParams,
  StandardScaler: standardScalerParams,
} as const satisfies Record<PreprocessingType, z.ZodType>;

/** A tuple or array type as its readonly form: what a value written `as const` has. */
type AcceptReadonly<V> = V extends readonly unknown[] ? Readonly<V> : V;

/**
 * Parameters as a caller writes them: every key optional, defaults filled in by parsing.
 * Pairs such as `feature_range` are readonly so settings written `as const` fit; parsing
 * copies them, so nothing the caller passed is ever changed.
 */
export type ParamsInput<T extends PreprocessingType> = T extends PreprocessingType
  ? { [K in keyof z.input<(typeof paramsSchemas)[T]>]: AcceptReadonly<z.input<(typeof paramsSchemas)[T]>[K]> }
  : never;
/** Parameters after parsing: every key present. */
export type Params<T extends PreprocessingType> = z.output<(typeof paramsSchemas)[T]>;

export type ParamsByType = { [T in PreprocessingType]: Params<T> };
