/**
 * A job's short name for lists and legends: the transform and the parameters that differ
 * from scikit-learn's defaults, so two PowerTransformers (yeo-johnson and box-cox) read
 * differently in a plot's rows and in the REPL's /jobs.
 */
import { paramsSchemas } from "../../core/contract/params.js";
import { PREPROCESSING_TYPES, type PreprocessingType } from "../../core/contract/transform-types.js";

function isType(type: string): type is PreprocessingType {
  return (PREPROCESSING_TYPES as readonly string[]).includes(type);
}

function formatValue(value: unknown): string {
  if (Array.isArray(value)) return value.map(formatValue).join(",");
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** The parameters of `params` that are not the transform's defaults (`copy` never counts: it changes no output). */
export function nonDefaultParams(
  type: string,
  params: Readonly<Record<string, unknown>> = {},
): Record<string, unknown> {
  if (!isType(type)) return { ...params };
  const defaults = paramsSchemas[type].safeParse({});
  const base = (defaults.success ? defaults.data : {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) {
    if (key === "copy" || value === undefined) continue;
    if (JSON.stringify(value) !== JSON.stringify(base[key])) out[key] = value;
  }
  return out;
}

/** `key=value` pairs of the non-default parameters, e.g. `method=box-cox quantile_range=10,90`; empty when all are defaults. */
export function paramsText(type: string, params: Readonly<Record<string, unknown>> = {}): string {
  return Object.entries(nonDefaultParams(type, params))
    .map(([key, value]) => `${key}=${formatValue(value)}`)
    .join(" ");
}

/**
 * `PowerTransformer (method=box-cox)`, or the bare type when every parameter is its default.
 *
 * @example
 * jobLabel("RobustScaler", { quantile_range: [10, 90] }); // "RobustScaler (quantile_range=10,90)"
 */
export function jobLabel(type: string, params: Readonly<Record<string, unknown>> = {}): string {
  const text = paramsText(type, params);
  return text ? `${type} (${text})` : type;
}
