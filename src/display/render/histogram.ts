/**
 * Numeric columns out of whatever the user holds (danfo DataFrame, mdps Table, or a
 * plain object of arrays) and equal-width histograms of them. Binning happens here,
 * in one pass over a typed array, so a million-row column becomes a few dozen bars
 * before any plotting library sees it.
 */
import type { Table } from "../../core/formats/table.js";
import { isDataFrameLike, isTable, type DataFrameLike } from "./table.js";
import { didYouMean } from "../../core/contract/nearest-name.js";

/** Anything with named columns (numbers to plot; text too, e.g. a label to colour by). */
export type ColumnSource =
  DataFrameLike | Table | { readonly [column: string]: ArrayLike<number | string | boolean | null> };

export interface Bin {
  readonly start: number;
  readonly end: number;
  readonly count: number;
}

export interface Histogram {
  readonly bins: readonly Bin[];
  /** Values that were NaN or missing, not in any bin. */
  readonly missing: number;
}

function toFloat64(values: ArrayLike<unknown>): Float64Array {
  if (values instanceof Float64Array) return values;
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    out[i] = typeof v === "number" ? v : v === null || v === undefined || v === "" ? Number.NaN : Number(v);
  }
  return out;
}

/** Names of the columns whose values are numbers. */
export function numericColumnNames(source: ColumnSource): string[] {
  if (isTable(source)) return source.columns.filter((c) => c.kind === "number").map((c) => c.name);
  if (isDataFrameLike(source)) {
    return source.columns.filter((_, i) => /^(float|int)/.test(source.dtypes[i] ?? ""));
  }
  // A plain object's column is numeric when its first present value is a number.
  return Object.keys(source).filter((name) => {
    const values = Array.from(source[name] as ArrayLike<unknown>);
    return typeof values.find((v) => v !== null && v !== undefined) !== "string";
  });
}

/** One column as float64 (NaN for missing), or a clear error naming the columns there are. */
export function numericColumn(source: ColumnSource, name: string): Float64Array {
  if (isTable(source)) {
    const column = source.columns.find((c) => c.name === name);
    if (column?.kind === "number") return column.values;
    if (column) return toFloat64(column.values.map((v) => (v === null ? Number.NaN : Number(v))));
  } else if (isDataFrameLike(source)) {
    const index = source.columns.indexOf(name);
    if (index >= 0) {
      const rows = source.values;
      const out = new Float64Array(rows.length);
      for (let r = 0; r < rows.length; r++) {
        const row = rows[r];
        const v: unknown = Array.isArray(row) ? row[index] : row;
        out[r] = typeof v === "number" ? v : v === null || v === undefined ? Number.NaN : Number(v);
      }
      return out;
    }
  } else if (Object.hasOwn(source, name)) {
    return toFloat64(source[name] as ArrayLike<unknown>);
  }
  const known = isTable(source)
    ? source.columns.map((c) => c.name)
    : isDataFrameLike(source)
      ? source.columns
      : Object.keys(source);
  // A one- or two-letter name is near every other short one: no guess for those.
  const near = name.length > 2 ? didYouMean(name, known) : "";
  throw new Error(`column "${name}" not found${near}; the data has ${known.join(", ") || "no columns"}`);
}

/** Smallest and largest finite value, and how many values are missing. */
export function finiteRange(values: ArrayLike<number>): { min: number; max: number; missing: number } {
  const data = toFloat64(values);
  let min = Infinity;
  let max = -Infinity;
  let missing = 0;
  for (const v of data) {
    if (!Number.isFinite(v)) {
      missing += 1;
      continue;
    }
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return { min, max, missing };
}

/**
 * A bin edge that should be 0 but, computed as `min + i * width`, comes out as 4.8922e-11
 * (which a student reads as a bug): an edge within a billionth of a bin width of zero is
 * zero. Other edges are left exact, so data sets binned alike keep identical edges.
 */
export function roundEdge(value: number, width: number): number {
  return Math.abs(value) < Math.abs(width) * 1e-9 ? 0 : value;
}

/**
 * Equal-width bins over the finite values; a constant column gets one bin around its
 * value. `range` fixes the edges (to bin several data sets alike); values outside it
 * are left out.
 */
export function histogram(values: ArrayLike<number>, binCount = 30, range?: readonly [number, number]): Histogram {
  const data = toFloat64(values);
  const found = finiteRange(data);
  const missing = found.missing;
  const [min, max] = range ?? [found.min, found.max];
  if (missing === data.length) return { bins: [], missing };
  if (min === max) return { bins: [{ start: min - 0.5, end: max + 0.5, count: data.length - missing }], missing };
  const n = Math.max(1, Math.floor(binCount));
  const width = (max - min) / n;
  const counts = new Float64Array(n);
  for (const v of data) {
    if (!Number.isFinite(v) || v < min || v > max) continue;
    // The maximum belongs to the last bin, not to a bin of its own.
    const bin = Math.min(n - 1, Math.floor((v - min) / width));
    counts[bin] = (counts[bin] ?? 0) + 1;
  }
  // Edges at the precision the width carries, so an edge at zero reads 0, not 4.8922e-11.
  const bins = Array.from(counts, (count, i) => ({
    start: i === 0 ? min : roundEdge(min + i * width, width),
    end: i === n - 1 ? max : roundEdge(min + (i + 1) * width, width),
    count,
  }));
  return { bins, missing };
}
