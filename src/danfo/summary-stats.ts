/**
 * The numbers `describe(df)` and the REPL's `/describe` show, computed the way pandas' `describe()` does: missing
 * values skipped, sample standard deviation (ddof 1), linear-interpolated quartiles.
 */
import type { Column } from "../core/formats/table.js";

export interface NumericSummary {
  readonly kind: "number";
  readonly count: number;
  readonly missing: number;
  readonly mean: number;
  readonly std: number;
  readonly min: number;
  readonly q25: number;
  readonly median: number;
  readonly q75: number;
  readonly max: number;
}

export interface CategorySummary {
  readonly kind: "string" | "boolean";
  readonly count: number;
  readonly missing: number;
  readonly unique: number;
  readonly top: string | undefined;
  readonly freq: number;
}

export type ColumnSummary = NumericSummary | CategorySummary;

export function summarize(column: Column): ColumnSummary {
  if (column.kind === "number") return summarizeNumbers(column.values);
  const counts = new Map<string, number>();
  let missing = 0;
  for (const v of column.values) {
    if (v === null) {
      missing++;
      continue;
    }
    const key = String(v);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  let top: string | undefined;
  let freq = 0;
  for (const [key, n] of counts) {
    if (n > freq) {
      top = key;
      freq = n;
    }
  }
  return { kind: column.kind, count: column.values.length - missing, missing, unique: counts.size, top, freq };
}

export function summarizeNumbers(values: Float64Array): NumericSummary {
  const present = values.filter((v) => !Number.isNaN(v)).sort();
  const n = present.length;
  let mean = NaN;
  let std = NaN;
  if (n > 0) {
    // Two passes: the textbook one-pass formula loses digits on large offsets.
    let sum = 0;
    for (const v of present) sum += v;
    mean = sum / n;
    if (n > 1) {
      let ss = 0;
      for (const v of present) ss += (v - mean) * (v - mean);
      std = Math.sqrt(ss / (n - 1));
    }
  }
  return {
    kind: "number",
    count: n,
    missing: values.length - n,
    mean,
    std,
    min: n > 0 ? present[0]! : NaN,
    q25: quantileSorted(present, 0.25),
    median: quantileSorted(present, 0.5),
    q75: quantileSorted(present, 0.75),
    max: n > 0 ? present[n - 1]! : NaN,
  };
}

/** numpy's default ("linear") quantile of sorted data. */
export function quantileSorted(sorted: Float64Array, q: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const pos = (n - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.min(lo + 1, n - 1);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}
