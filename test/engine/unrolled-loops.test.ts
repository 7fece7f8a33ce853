/**
 * The memory-bound transforms run four rows per loop iteration plus a tail, and
 * Normalizer works in blocks of rows. The golden fixtures mostly have row counts that
 * are multiples of four and fit one block, so this checks every remainder, and several
 * blocks, against the plain per-value formula on the fitted state's own numbers.
 */
import { describe, expect, it } from "vitest";
import { fitTransform, decodeNumber, type FittedNumber } from "../../src/engine/index.js";

/** Seeded values in [-50, 50), some exactly 0, some NaN where `withNaN`. */
function columns(rows: number, width: number, withNaN: boolean): Float64Array[] {
  let state = 12345;
  const next = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
  return Array.from({ length: width }, () =>
    Float64Array.from({ length: rows }, () => {
      const u = next();
      if (withNaN && u < 0.05) return NaN;
      return u < 0.1 ? 0 : u * 100 - 50;
    }),
  );
}

const names = (width: number) => Array.from({ length: width }, (_, c) => `f${c}`);

/** The cells (column, row) where `actual` differs from `expected`; one expect per case keeps 7000-row cases fast. */
function mismatches(actual: Float64Array[], expected: (c: number, i: number) => number, same = Object.is): string[] {
  const found: string[] = [];
  actual.forEach((col, c) =>
    col.forEach((x, i) => {
      const want = expected(c, i);
      if (!same(x, want)) found.push(`column ${c}, row ${i}: ${x} instead of ${want}`);
    }),
  );
  return found.slice(0, 5);
}
const numbers = (values: FittedNumber[] | null) => values!.map(decodeNumber);

// 1-9 cover every remainder mod 4 with and without a full iteration; 7000 rows of 10
// columns span three Normalizer blocks (3276 rows each) with a tail in the last.
const ROW_COUNTS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 1023, 7000];

describe("unrolled loops give the plain formula for every row count", () => {
  it.each(ROW_COUNTS)("MinMaxScaler, %i rows: x * scale_ + min_", (rows) => {
    const cols = columns(rows, 3, true);
    const { columns: out, fitted } = fitTransform("MinMaxScaler", { feature_range: [-2, 3] }, { names: names(3), columns: cols });
    const scale = numbers(fitted.scale_);
    const min = numbers(fitted.min_);
    expect(mismatches(out, (c, i) => cols[c][i] * scale[c] + min[c])).toEqual([]);
  });

  it.each(ROW_COUNTS)("MaxAbsScaler, %i rows: x / scale_", (rows) => {
    const cols = columns(rows, 3, true);
    const { columns: out, fitted } = fitTransform("MaxAbsScaler", {}, { names: names(3), columns: cols });
    const scale = numbers(fitted.scale_);
    expect(mismatches(out, (c, i) => cols[c][i] / scale[c])).toEqual([]);
  });

  it.each(ROW_COUNTS)("StandardScaler, %i rows: (x - mean_) / scale_", (rows) => {
    const cols = columns(rows, 3, true);
    const { columns: out, fitted } = fitTransform("StandardScaler", {}, { names: names(3), columns: cols });
    const mean = numbers(fitted.mean_);
    const scale = numbers(fitted.scale_);
    expect(mismatches(out, (c, i) => (cols[c][i] - mean[c]) / scale[c])).toEqual([]);
  });

  it.each(ROW_COUNTS)("Normalizer l1, l2 and max, %i rows of 10: x / the row's norm", (rows) => {
    const cols = columns(rows, 10, false);
    const norms = {
      l1: (row: number[]) => row.reduce((s, x) => s + Math.abs(x), 0),
      l2: (row: number[]) => Math.sqrt(row.reduce((s, x) => s + x * x, 0)),
      max: (row: number[]) => row.reduce((m, x) => Math.max(m, Math.abs(x)), 0),
    };
    for (const [norm, of] of Object.entries(norms) as [keyof typeof norms, (row: number[]) => number][]) {
      const out = fitTransform("Normalizer", { norm }, { names: names(10), columns: cols }).columns;
      const rowNorms = Array.from({ length: rows }, (_, i) => of(cols.map((col) => col[i])) || 1); // a zero row stays zero
      // The norm's sum runs in another order than this reduce: equal to the last bits.
      const close = (x: number, want: number) => Math.abs(x - want) <= 1e-15 * Math.abs(want);
      expect(mismatches(out, (c, i) => cols[c][i] / rowNorms[i], close), norm).toEqual([]);
    }
  });
});
