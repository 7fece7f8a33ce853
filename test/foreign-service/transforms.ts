/**
 * The two transforms this region runs (four with `fourTransforms`: RobustScaler and MaxAbsScaler too). Feature columns are parsed as numbers (an empty field or
 * `NaN` is missing: ignored in the fit, kept empty in the output); every other column is copied
 * as it was read. The other six PreprocessingType values are accepted by send and fail the job.
 */
import type { CsvTable } from "./csv.js";

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

export class TransformError extends Error {
  override readonly name = "TransformError";
}

/** Per column: output = (x - offset) / scale; `attributes` are scikit-learn's, in this vendor's PascalCase. */
interface ColumnFit {
  readonly offset: number;
  readonly scale: number;
  readonly attributes: Readonly<Record<string, number>>;
}

/** The transformed table and, per feature column in order, the fitted attributes. */
export interface TransformOutput extends CsvTable {
  readonly fitted: ReadonlyArray<{ readonly column: string; readonly attributes: Readonly<Record<string, number>> }>;
  readonly samples: number;
}

type Params = Readonly<Record<string, unknown>>;

export function applyTransform(
  type: PreprocessingType,
  params: Params,
  table: CsvTable,
  featureColumns: readonly string[],
  region: { readonly fourTransforms: boolean } = { fourTransforms: false },
): TransformOutput {
  const indexes = featureColumns.map((name) => {
    const index = table.header.indexOf(name);
    if (index < 0) throw new TransformError(`feature column '${name}' is not in the dataset header`);
    return index;
  });
  const fitColumn = chooseFit(type, params, region.fourTransforms);
  const fits = new Map<number, ColumnFit>();
  for (const index of indexes) {
    fits.set(index, fitColumn(numericColumn(table, index)));
  }
  const rows = table.rows.map((row) =>
    row.map((field, index) => {
      const fit = fits.get(index);
      if (fit === undefined) return field;
      const x = parseNumber(field);
      return Number.isNaN(x) ? "" : String((x - fit.offset) / fit.scale);
    }),
  );
  const fitted = indexes.map((index) => ({
    column: table.header[index] ?? "",
    attributes: fits.get(index)!.attributes,
  }));
  return { header: table.header, rows, fitted, samples: table.rows.length };
}

function chooseFit(type: PreprocessingType, params: Params, four: boolean): (values: readonly number[]) => ColumnFit {
  switch (type) {
    case "StandardScaler":
      return standardScaler(params);
    case "MinMaxScaler":
      return minMaxScaler(params);
    case "RobustScaler":
      if (four) return robustScaler(params);
      throw new TransformError(`preprocessing type ${type} is not available in this region`);
    case "MaxAbsScaler":
      if (four) return maxAbsScaler();
      throw new TransformError(`preprocessing type ${type} is not available in this region`);
    case "Binarizer":
    case "Normalizer":
    case "PowerTransformer":
    case "QuantileTransformer":
      throw new TransformError(`preprocessing type ${type} is not available in this region`);
    default: {
      const unreachable: never = type;
      throw new TransformError(`unknown preprocessing type ${String(unreachable)}`);
    }
  }
}

/** Params `with_mean`, `with_std` (booleans, default true). Population std; a constant column keeps scale 1. */
function standardScaler(params: Params): (values: readonly number[]) => ColumnFit {
  const withMean = booleanParam(params, "with_mean", true);
  const withStd = booleanParam(params, "with_std", true);
  return (values) => {
    const present = values.filter((x) => !Number.isNaN(x));
    const mean = present.length === 0 ? 0 : present.reduce((a, b) => a + b, 0) / present.length;
    const variance = present.length === 0 ? 0 : present.reduce((a, x) => a + (x - mean) ** 2, 0) / present.length;
    const std = Math.sqrt(variance);
    const scale = withStd && std > 0 ? std : 1;
    return { offset: withMean ? mean : 0, scale, attributes: { Mean: mean, Var: variance, Scale: scale } };
  };
}

/** Param `feature_range` ([min, max], default [0, 1]). A constant column maps to the range's min. */
function minMaxScaler(params: Params): (values: readonly number[]) => ColumnFit {
  const [low, high] = rangeParam(params, "feature_range", [0, 1]);
  return (values) => {
    const present = values.filter((x) => !Number.isNaN(x));
    // reduce, not Math.min(...present): spreading a long column overflows the call stack.
    const min = present.length === 0 ? 0 : present.reduce((a, b) => Math.min(a, b));
    const max = present.length === 0 ? 1 : present.reduce((a, b) => Math.max(a, b));
    const span = max - min === 0 ? 1 : max - min;
    // (x - min) / span * (high - low) + low, written as (x - offset) / scale.
    const scale = span / (high - low);
    const attributes = { DataMin: min, DataMax: max, DataRange: max - min, Scale: 1 / scale, Min: low - min / scale };
    return { offset: min - low * scale, scale, attributes };
  };
}

/** Params `with_centering`, `with_scaling` (default true), `quantile_range` ([q1, q3] in percent, default [25, 75]). */
function robustScaler(params: Params): (values: readonly number[]) => ColumnFit {
  const centering = booleanParam(params, "with_centering", true);
  const scaling = booleanParam(params, "with_scaling", true);
  const [q1, q3] = rangeParam(params, "quantile_range", [25, 75]);
  return (values) => {
    const sorted = values.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
    const center = percentile(sorted, 50);
    const range = percentile(sorted, q3) - percentile(sorted, q1);
    const scale = scaling && range !== 0 ? range : 1;
    return { offset: centering ? center : 0, scale, attributes: { Center: center, Scale: scale } };
  };
}

/** No params. A column of zeros keeps scale 1. */
function maxAbsScaler(): (values: readonly number[]) => ColumnFit {
  return (values) => {
    const maxAbs = values.filter((x) => !Number.isNaN(x)).reduce((a, x) => Math.max(a, Math.abs(x)), 0);
    const scale = maxAbs === 0 ? 1 : maxAbs;
    return { offset: 0, scale, attributes: { MaxAbs: maxAbs, Scale: scale } };
  };
}

/** numpy's default (linear) percentile of sorted values. */
function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  const at = ((sorted.length - 1) * q) / 100;
  const low = Math.floor(at);
  const high = Math.min(low + 1, sorted.length - 1);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (at - low);
}

function numericColumn(table: CsvTable, index: number): number[] {
  return table.rows.map((row, rowIndex) => {
    const field = row[index] ?? "";
    const x = parseNumber(field);
    if (Number.isNaN(x) && field.trim() !== "" && field.trim() !== "NaN") {
      throw new TransformError(
        `row ${rowIndex + 1}, column '${table.header[index] ?? index}': '${field}' is not a number`,
      );
    }
    if (!Number.isFinite(x) && !Number.isNaN(x)) {
      throw new TransformError(
        `row ${rowIndex + 1}, column '${table.header[index] ?? index}': infinite values are not allowed`,
      );
    }
    return x;
  });
}

function parseNumber(field: string): number {
  const text = field.trim();
  return text === "" ? Number.NaN : Number(text);
}

function booleanParam(params: Params, name: string, fallback: boolean): boolean {
  const value = params[name];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== "boolean") throw new TransformError(`preprocessing_params.${name} must be a boolean`);
  return value;
}

function rangeParam(params: Params, name: string, fallback: readonly [number, number]): readonly [number, number] {
  const value = params[name];
  if (value === undefined || value === null) return fallback;
  if (Array.isArray(value) && value.length === 2) {
    const low: unknown = value[0];
    const high: unknown = value[1];
    if (typeof low === "number" && typeof high === "number" && low < high) return [low, high];
  }
  throw new TransformError(`preprocessing_params.${name} must be [min, max] with min < max`);
}
