/**
 * A scaler's column through the SIMD kernels: an elementwise map into a new column, or a
 * reduction over the whole column (its bounds) followed by a map that depends on it.
 * The kernels run on a copy in WebAssembly memory; one `map` or `reduceThenMap` call has
 * that memory to itself (everything here is synchronous).
 */
import { DATA_START, evenLength, kernelsWithRoom, type Kernels } from "./wasm-kernels.js";

/** An in-place kernel call over `len` doubles (even) at byte offset `p`. */
export type BlockMap = (kernels: Kernels, p: number, len: number) => void;

/**
 * A column up to this size is copied in once and reduced and mapped while it sits in the
 * L2 cache (2 MiB a core on the benchmark machine); a 100,000-row column is 800 KB. A
 * longer one is read block by block, once per pass.
 */
const RESIDENT_BYTES = 2 << 20;
/** Block of a longer column: big enough that per-block calls cost nothing, small enough for L2. */
const BLOCK_BYTES = 256 << 10;

const DATA_INDEX = DATA_START / 8;

/**
 * Copies col[start, start + len) to the data area, and NaN after it when len is odd: the
 * kernels take pairs, and NaN is skipped by both reductions.
 */
function copyIn(heap: Float64Array, col: Float64Array, start: number, len: number): void {
  heap.set(len === col.length ? col : col.subarray(start, start + len), DATA_INDEX);
  if (len & 1) heap[DATA_INDEX + len] = NaN;
}

function copyOut(heap: Float64Array, out: Float64Array, start: number, len: number): void {
  out.set(heap.subarray(DATA_INDEX, DATA_INDEX + len), start);
}

/** `map` applied to every value of `col`, written to `out` (a new column, returned). */
export function mapColumn(col: Float64Array, map: BlockMap, out: Float64Array): Float64Array {
  const n = col.length;
  const block = Math.min(evenLength(n), BLOCK_BYTES / 8);
  const { kernels, heap } = kernelsWithRoom(block * 8);
  for (let start = 0; start < n; start += block) {
    const len = Math.min(n - start, block);
    copyIn(heap, col, start, len);
    map(kernels, DATA_START, evenLength(len));
    copyOut(heap, out, start, len);
  }
  return out;
}

/**
 * What a reduction starts from and how it runs: `bounds` takes the low and high bound
 * (NaN skipped), `abs_max` the high bound of |x| (NaN skipped; lo is not used).
 */
export interface Reduction {
  readonly kernel: "bounds" | "abs_max";
  readonly lo: number;
  readonly hi: number;
}

export const BOUNDS: Reduction = { kernel: "bounds", lo: Infinity, hi: -Infinity };
/** -1 stays when every value is NaN. */
export const ABS_MAX: Reduction = { kernel: "abs_max", lo: NaN, hi: -1 };

export interface Reduced {
  readonly lo: number;
  readonly hi: number;
}

/**
 * The column's reduction, then `mapFor(reduced)` applied to every value, written to `out`.
 * `mapFor` may throw (to name an infinity the reduction found).
 */
export function reduceThenMap(
  col: Float64Array,
  reduction: Reduction,
  mapFor: (reduced: Reduced) => BlockMap,
  out: Float64Array,
): Float64Array {
  const n = col.length;
  if (n * 8 > RESIDENT_BYTES) return mapColumn(col, mapFor(reduceBlocks(col, reduction)), out);
  const len = evenLength(n);
  const { kernels, heap } = kernelsWithRoom(len * 8);
  copyIn(heap, col, 0, n);
  startReduction(heap, reduction);
  kernels[reduction.kernel](DATA_START, len);
  mapFor(reductionResult(heap))(kernels, DATA_START, len);
  copyOut(heap, out, 0, n);
  return out;
}

function reduceBlocks(col: Float64Array, reduction: Reduction): Reduced {
  const n = col.length;
  const block = BLOCK_BYTES / 8;
  const { kernels, heap } = kernelsWithRoom(BLOCK_BYTES);
  startReduction(heap, reduction);
  for (let start = 0; start < n; start += block) {
    const len = Math.min(n - start, block);
    copyIn(heap, col, start, len);
    kernels[reduction.kernel](DATA_START, evenLength(len));
  }
  return reductionResult(heap);
}

// The running bounds live in bytes 0-31: two low lanes, then two high lanes.
function startReduction(heap: Float64Array, { lo, hi }: Reduction): void {
  heap[0] = heap[1] = lo;
  heap[2] = heap[3] = hi;
}

/** No lane holds NaN after a reduction (it skips NaN), so Math.min/max are exact. */
function reductionResult(heap: Float64Array): Reduced {
  return { lo: Math.min(heap[0], heap[1]), hi: Math.max(heap[2], heap[3]) };
}
