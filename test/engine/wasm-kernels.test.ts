/**
 * The SIMD kernels ship as committed bytes (src/core/engine/simd/kernels-wasm.ts) next to
 * their source (kernels.wat): the bytes must be what the committed script makes of the
 * committed source, or an edit of the source would not be what runs.
 */
import { describe, expect, it } from "vitest";
import { committedModuleText, kernelsModuleText } from "../../scripts/build-wasm.js";
import { fitTransform } from "../../src/core/engine/index.js";
import { seededRandom } from "../../src/core/sample-data/seeded-random.js";
import {
  DATA_START,
  kernelsWithRoom,
  MAY_REACH_NORM,
  NON_FINITE_NORM,
  PrivateKernels,
  type Kernels,
} from "../../src/core/engine/simd/wasm-kernels.js";

/** A row-norm kernel; norms_max_abs keeps no peaks (a max norm is its own). */
function accumulate(
  kernels: Kernels,
  kernel: "norms_sum_sq" | "norms_sum_abs" | "norms_max_abs",
  data: number,
  stride: number,
  width: number,
  norms: number,
  peaks: number,
  len: number,
): void {
  if (kernel === "norms_max_abs") kernels.norms_max_abs(data, stride, width, norms, len);
  else kernels[kernel](data, stride, width, norms, peaks, len);
}

describe("SIMD kernels", () => {
  it("the committed module is scripts/build-wasm.ts's output for kernels.wat", async () => {
    expect(committedModuleText()).toBe(await kernelsModuleText());
  });

  it("memory grows to the room asked for and never shrinks; growing detaches old views", () => {
    const before = kernelsWithRoom(1024).heap;
    const room = before.byteLength + 3 * 65536 + 8;
    const { heap } = kernelsWithRoom(room);
    expect(heap.byteLength).toBeGreaterThanOrEqual(DATA_START + room);
    expect(before.byteLength).toBe(0); // why callers take a new view for every call
    expect(kernelsWithRoom(16).heap.byteLength).toBe(heap.byteLength);
  });

  it("an odd-length column is not bounded by what an earlier call left after it", () => {
    fitTransform("MinMaxScaler", {}, { names: ["a"], columns: [new Float64Array(8).fill(1000)] });
    const { fitted } = fitTransform("MinMaxScaler", {}, { names: ["a"], columns: [Float64Array.of(1, 2, 3)] });
    expect([fitted.data_min_, fitted.data_max_]).toEqual([[1], [3]]);
  });

  it("bounds skip NaN in both lanes; max-abs norms keep it", () => {
    const { kernels, heap } = kernelsWithRoom(64);
    const at = DATA_START / 8;
    heap.set([Infinity, Infinity, -Infinity, -Infinity], 0);
    heap.set([NaN, 3, -2, NaN, 7, NaN], at);
    kernels.bounds(DATA_START, 6);
    expect([Math.min(heap[0], heap[1]), Math.max(heap[2], heap[3])]).toEqual([-2, 7]);
    // two columns of two rows, then the norms, started at 0
    heap.set([1, NaN, -4, 2, 0, 0], at);
    kernels.norms_max_abs(DATA_START, 16, 2, DATA_START + 32, 2);
    expect([heap[at + 4], heap[at + 5]]).toEqual([4, NaN]);
  });

  // The norms take four columns a pass, then one at a time: every width from 1 to 9 mixes
  // the two. Values within a few powers of ten of each other make the sums' roundings
  // depend on their order, and the specials (NaN, infinities, -0, the largest double,
  // which overflows a sum of squares) fall in either path. The kernels add into the norms
  // they are given, so a row's norm can gather its columns from several groups, in the
  // same order of sums. The sums also raise each row's peak to its largest term (NaN
  // skipped, as pmax does).
  it.each([1, 2, 3, 4, 5, 6, 7, 8, 9])("row norms of %i columns are the plain formula in column order", (width) => {
    const rows = 64;
    const random = seededRandom(width);
    const specials = [NaN, Infinity, -Infinity, -0, Number.MAX_VALUE, -Number.MIN_VALUE];
    const cols = Array.from({ length: width }, (_, c) =>
      Float64Array.from({ length: rows }, (_, k) =>
        k % 16 === c % 16 && k >= 32
          ? specials[(k + c) % specials.length]
          : (random() - 0.5) * 10 ** (random() * 4 - 2),
      ),
    );
    const plain = {
      norms_sum_sq: (row: number[]) => row.reduce((s, x) => s + x * x, 0),
      norms_sum_abs: (row: number[]) => row.reduce((s, x) => s + Math.abs(x), 0),
      norms_max_abs: (row: number[]) => row.reduce((m, x) => Math.max(m, Math.abs(x)), 0), // NaN wins, as in numpy
    };
    const term = { norms_sum_sq: (x: number) => x * x, norms_sum_abs: Math.abs };
    const peakOf = (kernel: keyof typeof term, row: number[]) =>
      row.filter((x) => !Number.isNaN(x)).reduce((m, x) => Math.max(m, term[kernel](x)), 0);
    const { kernels, heap } = kernelsWithRoom((width + 2) * rows * 8);
    const stride = rows * 8;
    cols.forEach((col, c) => heap.set(col, (DATA_START + c * stride) / 8));
    const norms = DATA_START + width * stride;
    const peaks = norms + stride;
    const read = (at: number) => Array.from(heap.subarray(at / 8, at / 8 + rows));
    for (const [kernel, formula] of Object.entries(plain) as [keyof typeof plain, (row: number[]) => number][]) {
      const rowsOf = Array.from({ length: rows }, (_, k) => cols.map((col) => col[k]));
      const want = rowsOf.map(formula);
      const wantPeaks = kernel === "norms_max_abs" ? undefined : rowsOf.map((row) => peakOf(kernel, row));
      heap.fill(0, norms / 8, norms / 8 + 2 * rows);
      accumulate(kernels, kernel, DATA_START, stride, width, norms, peaks, rows);
      expect(read(norms), kernel).toEqual(want);
      if (wantPeaks) expect(read(peaks), `${kernel} peaks`).toEqual(wantPeaks);
      // the first column as an earlier group, the rest added to what it left
      if (width < 2) continue;
      heap.fill(0, norms / 8, norms / 8 + 2 * rows);
      accumulate(kernels, kernel, DATA_START, stride, 1, norms, peaks, rows);
      accumulate(kernels, kernel, DATA_START + stride, stride, width - 1, norms, peaks, rows);
      expect(read(norms), `${kernel} in two groups`).toEqual(want);
      if (wantPeaks) expect(read(peaks), `${kernel} peaks in two groups`).toEqual(wantPeaks);
    }
  });

  // Normalizer multiplies by 1/norm instead of dividing: within an ulp of the quotient for
  // ordinary norms, and still within 1e-15 at both ends, where 1/norm is large (just above
  // the zero-scale bound) or subnormal (a norm above 2^1022 leaves it fewer bits).
  it("norms are finished (sqrt, the zero-scale rule) and their reciprocals are the factors", () => {
    const norms = [
      25,
      2,
      3,
      7,
      1e-300,
      1e-15,
      2.220446049250313e-15,
      3e-15,
      2 ** 1022,
      1.7e308,
      Number.MAX_VALUE,
      0,
      Infinity,
      NaN,
      0.1,
      1e300,
    ];
    const finiteCount = norms.filter(Number.isFinite).length;
    for (const sqrt of [0, 1]) {
      const len = norms.length;
      const { kernels, heap } = kernelsWithRoom(3 * len * 8);
      const at = DATA_START / 8;
      heap.set(norms, at);
      heap.fill(0, at + 2 * len, at + 3 * len); // peaks of 0: no row reaches its norm
      const found = kernels.norms_to_factors(DATA_START, DATA_START + len * 8, DATA_START + 2 * len * 8, len, sqrt);
      const finished = norms.map((n) => (sqrt ? Math.sqrt(n) : n)).map((n) => (n < 2.220446049250313e-15 ? 1 : n));
      expect(Array.from(heap.subarray(at, at + len)), `sqrt ${sqrt}`).toEqual(finished);
      const factors = Array.from(heap.subarray(at + len, at + 2 * len));
      expect(factors, `sqrt ${sqrt}`).toEqual(finished.map((n) => 1 / n));
      expect(found).toBe(finiteCount < len ? NON_FINITE_NORM : 0);
      // a value of the row's own size, and one a millionth of it
      finished.forEach((n, k) => {
        if (!Number.isFinite(n)) return;
        for (const x of [n * 0.75, n * 1e-6]) {
          const quotient = x / n;
          expect(Math.abs(x * factors[k] - quotient), `${x} / ${n}`).toBeLessThanOrEqual(1e-15 * quotient);
        }
      });
    }
    const { kernels, heap } = kernelsWithRoom(48);
    heap.set([1, 2, 0, 0, 0, 0], DATA_START / 8);
    expect(kernels.norms_to_factors(DATA_START, DATA_START + 16, DATA_START + 32, 2, 1)).toBe(0);
  });

  // multiply_rows leaves out the check that makes |x| == norm exactly ±1, so the flag must
  // come up for every row where some |x| is its norm; it should stay down for rows whose
  // other values are not negligible, or the check is never skipped. Rows of one large
  // value and others 2^-10 to 2^-60 of it cross from one side to the other (for l2 near
  // 2^-26, for l1 near 2^-53), in 1 to 9 columns, with the values and norms the kernels
  // compute.
  it.each(["norms_sum_sq", "norms_sum_abs"] as const)(
    "%s: a row where |x| may be the norm raises MAY_REACH_NORM",
    (kernel) => {
      const random = seededRandom(kernel.length);
      const counts = { reaches: 0, flaggedOnly: 0, clear: 0 };
      for (let trial = 0; trial < 4000; trial++) {
        const width = 1 + (trial % 9);
        const big = (random() + 0.5) * 10 ** Math.floor(random() * 20 - 10) * (random() < 0.5 ? -1 : 1);
        const small = () => big * 2 ** -(10 + random() * 50) * (random() - 0.5);
        const row = Array.from({ length: width }, (_, c) =>
          c === trial % width ? big : trial % 5 === 0 ? 0 : small(),
        );
        const { kernels, heap } = kernelsWithRoom((width + 3) * 16);
        const stride = 16; // two rows: this one and a zero row as the pair's other lane
        const norms = DATA_START + width * stride;
        heap.fill(0, DATA_START / 8, (DATA_START + (width + 3) * stride) / 8);
        row.forEach((x, c) => (heap[(DATA_START + c * stride) / 8] = x));
        kernels[kernel](DATA_START, stride, width, norms, norms + 2 * stride, 2);
        const flagged =
          (kernels.norms_to_factors(norms, norms + stride, norms + 2 * stride, 2, kernel === "norms_sum_sq" ? 1 : 0) &
            MAY_REACH_NORM) !==
          0;
        const norm = heap[norms / 8];
        const reaches = row.some((x) => Math.abs(x) === norm);
        if (reaches) expect(flagged, `${row.join(",")} (norm ${norm})`).toBe(true);
        counts[reaches ? "reaches" : flagged ? "flaggedOnly" : "clear"]++;
      }
      // both sides of the line are tried, and false alarms are the rare case
      expect(counts.reaches).toBeGreaterThan(500);
      expect(counts.clear).toBeGreaterThan(1000);
      expect(counts.flaggedOnly).toBeLessThan(counts.reaches / 2);
    },
  );

  it("a block's flag: max norms always, rows under the zero-scale rule never, NaN never", () => {
    const { kernels, heap } = kernelsWithRoom(6 * 8);
    const at = DATA_START / 8;
    // a max norm is its own peak: norms and peaks at the same place
    heap.set([3, 0.5], at);
    expect(kernels.norms_to_factors(DATA_START, DATA_START + 16, DATA_START, 2, 0)).toBe(MAY_REACH_NORM);
    // sums of 0 and 1e-31 (norms 0 and 3e-16, both replaced by 1) with peaks equal to them
    heap.set([0, 1e-31, 0, 0, 0, 1e-31], at);
    expect(kernels.norms_to_factors(DATA_START, DATA_START + 16, DATA_START + 32, 2, 1)).toBe(0);
    heap.set([NaN, 4, 0, 0, NaN, 1], at);
    expect(kernels.norms_to_factors(DATA_START, DATA_START + 16, DATA_START + 32, 2, 1)).toBe(NON_FINITE_NORM);
  });

  // Every integer norm up to 1000 whose reciprocal times itself is not 1 (49 is the first),
  // in 1 to 9 columns (the four-column pass and the rest): a value as large as its row's
  // norm, of either sign, comes out exactly ±1, as x / x does, and every other value is
  // x times the factor.
  it.each([1, 2, 3, 4, 5, 6, 7, 8, 9])(
    "scaling %i columns: x · (1/norm), and exactly ±1 where |x| is the norm",
    (width) => {
      const inexact = Array.from({ length: 1000 }, (_, i) => i + 1).filter((n) => n * (1 / n) !== 1);
      expect(inexact.slice(0, 3)).toEqual([49, 98, 103]);
      const rows = inexact.length + (inexact.length & 1);
      const norms = Float64Array.from({ length: rows }, (_, k) => inexact[k] ?? 1);
      const factors = norms.map((n) => 1 / n);
      const random = seededRandom(width);
      // row k holds ±norm in column k % width, other values below it, a NaN and a -0 here and there
      const cols = Array.from({ length: width }, (_, c) =>
        Float64Array.from(norms, (n, k) =>
          c === k % width ? (k & 2 ? -n : n) : k % 17 === c ? NaN : k % 13 === c ? -0 : (random() - 0.5) * n,
        ),
      );
      const stride = rows * 8;
      const { kernels, heap } = kernelsWithRoom((width + 2) * stride);
      cols.forEach((col, c) => heap.set(col, (DATA_START + c * stride) / 8));
      const normsAt = DATA_START + width * stride;
      heap.set(norms, normsAt / 8);
      heap.set(factors, (normsAt + stride) / 8);
      kernels.scale_rows(DATA_START, stride, width, normsAt, normsAt + stride, rows);
      cols.forEach((col, c) => {
        const got = Array.from(heap.subarray((DATA_START + c * stride) / 8, (DATA_START + (c + 1) * stride) / 8));
        const want = Array.from(col, (x, k) => (Math.abs(x) === norms[k] ? Math.sign(x) : x * factors[k]));
        expect(got, `column ${c}`).toEqual(want);
      });
    },
  );

  it("exp is Math.exp bit for bit: edge cases, every range fdlibm branches on, any bit pattern", () => {
    const edges = [
      0,
      -0,
      1,
      -1,
      Infinity,
      -Infinity,
      NaN,
      709.782712893384,
      709.7827128933841,
      -745.1332191019411,
      -745.1332191019412,
      0.34657359027997264,
      0.3465735912322998,
      1.0397207708399179,
      1.0397205352783203,
      2 ** -28,
      -(2 ** -28),
      2 ** -29,
      1e-300,
      5e-324,
      -708.3964185322641,
      -1021 * Math.LN2,
      -1022 * Math.LN2,
      1024 * Math.LN2 - 1e-9,
      709.0,
      -709.0,
      0.5,
      -0.5,
      2,
      -2,
      10,
      -10,
      100,
      -100,
    ];
    const random = seededRandom(7);
    const bits = new Uint32Array(2);
    const anyDouble = () => {
      bits[0] = random() * 2 ** 32;
      bits[1] = random() * 2 ** 32;
      return new Float64Array(bits.buffer)[0];
    };
    const ranges: (() => number)[] = [
      () => (random() - 0.5) * 2, // no reduction and k = ±1
      () => (random() - 0.5) * 60,
      () => (random() - 0.5) * 1500, // overflow and underflow
      () => -708 - random() * 38, // subnormal results
      () => 709 + random() * 0.8, // k = 1024
      () => (random() - 0.5) * 1e-7, // around 2^-28
      anyDouble,
    ];
    const values = [...edges, ...ranges.flatMap((next) => Array.from({ length: 20001 }, next))];
    const n = values.length; // odd, so the lone last value is covered too
    const { kernels, heap } = new PrivateKernels().withRoom(2 * (n + 1) * 8);
    heap.set(values, DATA_START / 8);
    const dst = DATA_START + (n + 1) * 8;
    kernels.exp_affine_sum(DATA_START, n, 1, 0, 1, dst);
    const wrong = values
      .map((x, i) => ({ x, got: heap[dst / 8 + i], want: Math.exp(x) }))
      .filter(({ got, want }) => !Object.is(got, want) && !(Number.isNaN(got) && Number.isNaN(want)));
    expect(n % 2).toBe(1);
    expect(wrong.slice(0, 5)).toEqual([]);
  });

  it("exp_affine_sum returns the sum of what it writes; squared_deviation_sum is Σ(x - mean)²", () => {
    const { kernels, heap } = new PrivateKernels().withRoom(64 * 8);
    const values = [0.5, 1.5, -2, 3.25, 0, 7];
    heap.set(values, DATA_START / 8);
    const dst = DATA_START + 16 * 8;
    for (const n of [5, 6]) {
      const sum = kernels.exp_affine_sum(DATA_START, n, 0.7, 1, -0.7, dst);
      const written = Array.from(heap.subarray(dst / 8, dst / 8 + n));
      expect(written).toEqual(values.slice(0, n).map((x) => (Math.exp(0.7 * x) - 1) / -0.7));
      expect(sum).toBeCloseTo(
        written.reduce((a, b) => a + b),
        14,
      );
      const mean = sum / n;
      expect(kernels.squared_deviation_sum(dst, n, mean)).toBeCloseTo(
        written.reduce((a, v) => a + (v - mean) ** 2, 0),
        14,
      );
    }
  });
});
