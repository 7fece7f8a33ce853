/**
 * The memory-bound transforms run four rows per JavaScript loop iteration or two per SIMD
 * instruction, plus a tail, and Normalizer and long columns of MinMaxScaler and
 * MaxAbsScaler go through in blocks. The golden fixtures mostly have row counts that are
 * even and fit one block, so this checks every remainder, and several blocks, against the
 * plain per-value formula on the fitted state's own numbers.
 */
import { describe, expect, it } from "vitest";
import { fitTransform, decodeNumber, transformWith, type FittedNumber } from "../../src/core/engine/index.js";
import { kernelsWithRoom } from "../../src/core/engine/simd/wasm-kernels.js";
import { normalizerLayout } from "../../src/core/engine/normalizer.js";
import { seededRandom } from "../../src/core/sample-data/seeded-random.js";

/** Seeded values in [-50, 50), some exactly 0, some NaN where `withNaN`. */
function columns(rows: number, width: number, withNaN: boolean): Float64Array[] {
  const next = seededRandom(12345);
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

/** Each row's norm, its sum in column order as the kernels take it, after the zero-scale rule. */
function normalizerNorms(cols: Float64Array[], norm: "l1" | "l2" | "max"): number[] {
  const of = {
    l1: (row: number[]) => row.reduce((s, x) => s + Math.abs(x), 0),
    l2: (row: number[]) => Math.sqrt(row.reduce((s, x) => s + x * x, 0)),
    max: (row: number[]) => row.reduce((m, x) => Math.max(m, Math.abs(x)), 0),
  }[norm];
  return Array.from(cols[0], (_, i) => of(cols.map((col) => col[i]))).map((n) => (n < 10 * Number.EPSILON ? 1 : n));
}

/** The engine's Normalizer, value by value: x times 1/norm, or ±1 where |x| is the norm (kernels.wat). */
function normalizerFormula(cols: Float64Array[], rowNorms: number[]): (c: number, i: number) => number {
  return (c, i) => (Math.abs(cols[c][i]) === rowNorms[i] ? Math.sign(cols[c][i]) : cols[c][i] * (1 / rowNorms[i]));
}

// 1-9 cover every remainder mod 4 with and without a full iteration; 13000 and 13001 rows
// of 10 columns span three Normalizer blocks (5042 rows each) with an even and an odd
// tail in the last.
const ROW_COUNTS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 1023, 13000, 13001];
// Past 2 MiB (262,144 rows) a column goes through the kernels block by block (32,768 rows
// each), once for its bounds and once for the scaling: ten full blocks and a one-row tail.
const LONG_COLUMN = 10 * 32768 + 1;

describe("loops give the plain formula for every row count", () => {
  it.each([...ROW_COUNTS, LONG_COLUMN])("MinMaxScaler, %i rows: x * scale_ + min_", (rows) => {
    const cols = columns(rows, 3, true);
    const { columns: out, fitted } = fitTransform(
      "MinMaxScaler",
      { feature_range: [-2, 3] },
      { names: names(3), columns: cols },
    );
    const scale = numbers(fitted.scale_);
    const min = numbers(fitted.min_);
    expect(mismatches(out, (c, i) => cols[c][i] * scale[c] + min[c])).toEqual([]);
  });

  it.each([...ROW_COUNTS, LONG_COLUMN])("MinMaxScaler with clip, %i rows: x * scale_ + min_ clipped", (rows) => {
    const cols = columns(rows, 2, true);
    const params = { feature_range: [-2, 3] as [number, number], clip: true };
    const { fitted } = fitTransform("MinMaxScaler", params, { names: names(2), columns: cols });
    // New data past the training range, as a test set would be, so the clip has work.
    const wider = cols.map((col) => col.map((x) => x * 1.5));
    const out = transformWith(fitted, { names: names(2), columns: wider });
    const scale = numbers(fitted.scale_);
    const min = numbers(fitted.min_);
    const clipped = (y: number) => (y < -2 ? -2 : y > 3 ? 3 : y);
    expect(mismatches(out, (c, i) => clipped(wider[c][i] * scale[c] + min[c]))).toEqual([]);
  });

  it.each([...ROW_COUNTS, LONG_COLUMN])("MaxAbsScaler, %i rows: x / scale_", (rows) => {
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
    for (const norm of ["l1", "l2", "max"] as const) {
      const out = fitTransform("Normalizer", { norm }, { names: names(10), columns: cols }).columns;
      const rowNorms = normalizerNorms(cols, norm);
      // The engine multiplies by 1/norm where this divides: equal to the last bits...
      const close = (x: number, want: number) => Math.abs(x - want) <= 1e-15 * Math.abs(want);
      expect(
        mismatches(out, (c, i) => cols[c][i] / rowNorms[i], close),
        norm,
      ).toEqual([]);
      // ...and exactly the engine's own formula
      expect(mismatches(out, normalizerFormula(cols, rowNorms)), norm).toEqual([]);
    }
  });

  // x / x is exactly 1, and scikit-learn divides; the engine multiplies by 1/norm, which
  // alone would leave 49 · (1/49) = 0.9999999999999999.
  it.each(ROW_COUNTS)("Normalizer, %i rows of 10: a value as large as its row's norm is exactly ±1", (rows) => {
    const cols = columns(rows, 10, false).map((col) => col.map(Math.round));
    const biggest = Array.from({ length: rows }, (_, i) => Math.max(...cols.map((col) => Math.abs(col[i]))));
    const max = fitTransform("Normalizer", { norm: "max" }, { names: names(10), columns: cols }).columns;
    const isBiggest = (c: number, i: number) => biggest[i] > 0 && Math.abs(cols[c][i]) === biggest[i];
    expect(mismatches(max, (c, i) => (isBiggest(c, i) ? Math.sign(cols[c][i]) : max[c][i]))).toEqual([]);
    // one non-zero a row, 1 to 1000 (49, 98, 103, ... among them) of either sign
    const single = cols.map((_, c) =>
      Float64Array.from({ length: rows }, (_, i) => (i % 10 === c ? ((i % 1000) + 1) * (i & 1 ? -1 : 1) : 0)),
    );
    for (const norm of ["l1", "l2"] as const) {
      const out = fitTransform("Normalizer", { norm }, { names: names(10), columns: single }).columns;
      expect(
        mismatches(out, (c, i) => (i % 10 === c ? (i & 1 ? -1 : 1) : 0)),
        norm,
      ).toEqual([]);
    }
  });

  // Under l1 and l2 only a block with such a row pays for the check (kernels.wat): a few of
  // them among dense rows, in the middle block only, then in the first and last blocks
  // only (the odd last row among them), each still exactly ±1 while the dense rows around
  // them, and the blocks without one, get the plain product.
  it.each([
    ["l1", [6000]],
    ["l2", [6000]],
    ["l1", [7, 10085, 13000]],
    ["l2", [7, 10085, 13000]],
  ] as const)("Normalizer (%s): rows %j of one value each, among dense rows, are exactly ±1", (norm, special) => {
    const rows = 13001;
    const cols = columns(rows, 10, false);
    special.forEach((i, n) => {
      cols.forEach((col) => (col[i] = 0));
      // 49 and 103 miss in x · (1/x); the second, with a neighbour too small to move the norm (2^-60 of it)
      cols[n % 10][i] = [49, -103, 98][n];
      if (n === 1) cols[(n + 1) % 10][i] = 103 * 2 ** -60;
    });
    const out = fitTransform("Normalizer", { norm }, { names: names(10), columns: cols }).columns;
    expect(special.map((i, n) => out[n % 10][i])).toEqual([1, -1, 1].slice(0, special.length));
    expect(mismatches(out, normalizerFormula(cols, normalizerNorms(cols, norm)))).toEqual([]);
  });
});

describe("what the first pass finds in a later block or the tail", () => {
  const longColumn = (at: number, value: number) => {
    const col = columns(LONG_COLUMN, 1, false)[0];
    col[at] = value;
    return { names: ["f0"], columns: [col] };
  };

  it.each([
    ["MinMaxScaler", -Infinity],
    ["MaxAbsScaler", Infinity],
  ] as const)("%s names %d in the last row of a long column", (type, value) => {
    const features = longColumn(LONG_COLUMN - 1, value);
    expect(() => fitTransform(type, {}, features)).toThrow(
      `holds ${value === Infinity ? "infinity" : "-infinity"} at row ${LONG_COLUMN}`,
    );
  });

  it("an all-NaN long column gives NaN state and NaN output, as numpy's nanmin/nanmax do", () => {
    const features = { names: ["f0"], columns: [new Float64Array(LONG_COLUMN).fill(NaN)] };
    const minMax = fitTransform("MinMaxScaler", {}, features);
    expect(numbers(minMax.fitted.data_min_)).toEqual([NaN]);
    expect(minMax.columns[0].every(Number.isNaN)).toBe(true);
    const maxAbs = fitTransform("MaxAbsScaler", {}, features);
    expect(numbers(maxAbs.fitted.max_abs_)).toEqual([NaN]);
    expect(maxAbs.columns[0].every(Number.isNaN)).toBe(true);
  });

  it.each(["l1", "l2", "max"] as const)("Normalizer (%s) names NaN in the odd last row of the last block", (norm) => {
    const cols = columns(13001, 10, false);
    cols[3][13000] = NaN;
    expect(() => fitTransform("Normalizer", { norm }, { names: names(10), columns: cols })).toThrow(
      /Column "f3" has a missing value at row 13001/,
    );
  });
});

// Too wide for a block of every column to hold 512 rows: column groups, each value read
// twice. The norms gather their columns group after group in column order, so the result
// is the same formula to the last bit, and the kernels' memory stays at a block whatever
// the width (a block of 256 rows of every column would have been 41 MB here).
it.each([
  [301, 20_000, "l1"],
  [4097, 700, "l2"],
  [9000, 130, "max"],
] as const)(
  "Normalizer on wide data, %i x %i (%s): column groups, the same formula to the last bit",
  (rows, width, norm) => {
    const layout = normalizerLayout(rows, width);
    expect(layout.columns).toBeLessThan(width);
    expect(Math.ceil(width / layout.columns)).toBeGreaterThan(1);
    const cols = columns(rows, width, false);
    const out = fitTransform("Normalizer", { norm }, { names: names(width), columns: cols }).columns;
    expect(mismatches(out, normalizerFormula(cols, normalizerNorms(cols, norm)))).toEqual([]);
    expect(kernelsWithRoom(0).heap.byteLength).toBeLessThanOrEqual(3 << 20); // MinMaxScaler's 2 MiB columns above are the most
  },
);

it("Normalizer's layout: one pass while a block of every column holds 512 rows, groups beyond", () => {
  expect(normalizerLayout(100_000, 50)).toEqual({ rows: 1236, columns: 50 });
  expect(normalizerLayout(1_000_000, 10)).toEqual({ rows: 5042, columns: 10 });
  expect(normalizerLayout(7, 10)).toEqual({ rows: 8, columns: 10 });
  expect(normalizerLayout(2_000, 2_000)).toEqual({ rows: 2_000, columns: 32 });
  expect(normalizerLayout(20_000, 200)).toEqual({ rows: 4096, columns: 16 });
  expect(normalizerLayout(3, 100_000)).toEqual({ rows: 4, columns: 16384 });
});
