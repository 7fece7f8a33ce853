/**
 * The numbers behind a plot that are not bins: percentiles (numpy's default, linear
 * interpolation, so a clip at [0, 99] cuts where scikit-learn's gallery cuts), a seeded
 * row sample (the same rows in every panel, the same picture on every run), any column's
 * raw values (for colour).
 */
import { isDataFrameLike, isTable } from "./table.js";
import { numericColumn, type ColumnSource } from "./histogram.js";
import { seededRandom } from "../../core/sample-data/seeded-random.js";

/** The `p`-th percentiles (0-100) of the finite values, as `numpy.percentile` computes them. */
export function percentiles(values: ArrayLike<number>, ps: readonly number[]): number[] {
  const finite = Array.from(values).filter((v) => Number.isFinite(v));
  finite.sort((a, b) => a - b);
  if (finite.length === 0) return ps.map(() => Number.NaN);
  return ps.map((p) => {
    if (!(p >= 0 && p <= 100))
      throw new RangeError(`percentile ${p} is outside 0-100; clip takes two numbers such as [0, 99]`);
    const at = (p / 100) * (finite.length - 1);
    const low = Math.floor(at);
    const high = Math.min(finite.length - 1, low + 1);
    return finite[low]! + (finite[high]! - finite[low]!) * (at - low);
  });
}

/**
 * `max` row positions out of `count`, chosen uniformly with `seed`, in ascending order;
 * every row when `count <= max`.
 */
export function sampleRows(count: number, max: number, seed: number): number[] {
  const all = Array.from({ length: count }, (_, i) => i);
  if (count <= max) return all;
  const next = seededRandom(seed);
  // A partial Fisher-Yates shuffle: the first `max` places are a uniform sample.
  for (let i = 0; i < max; i++) {
    const j = i + Math.floor(next() * (count - i));
    [all[i], all[j]] = [all[j]!, all[i]!];
  }
  return all.slice(0, max).sort((a, b) => a - b);
}

/** One column's values as they are (numbers, text, null), e.g. a target to colour by. */
export function rawColumn(source: ColumnSource, name: string): unknown[] | undefined {
  if (isTable(source)) {
    const column = source.columns.find((c) => c.name === name);
    return column ? Array.from(column.values as ArrayLike<unknown>) : undefined;
  }
  if (isDataFrameLike(source)) {
    const index = source.columns.indexOf(name);
    if (index < 0) return undefined;
    return source.values.map((row) => (Array.isArray(row) ? (row[index] as unknown) : row));
  }
  return Object.hasOwn(source, name) ? Array.from(source[name] as ArrayLike<unknown>) : undefined;
}

/** Row count of a source (the longest column of a plain object). */
export function rowCount(source: ColumnSource): number {
  if (isTable(source)) return source.rowCount;
  if (isDataFrameLike(source)) return source.values.length;
  return Math.max(0, ...Object.values(source).map((c) => c.length));
}

/** `numericColumn` under the name the error should use ("x" or "y" of the plot). */
export function plotColumn(source: ColumnSource, name: string, label: string): Float64Array {
  try {
    return numericColumn(source, name);
  } catch (error) {
    throw new Error(`${label}: ${(error as Error).message}`);
  }
}
