/**
 * The SIMD kernels of kernels.wat, loaded once per thread. Why WebAssembly: V8 compiles a
 * typed-array loop to scalar code, one double per instruction, and divides with scalar
 * divsd; numpy's loops, which scikit-learn's memory-bound transforms are made of, use
 * SIMD. Normalizer in plain JavaScript loops takes 0.55-0.8 of scikit-learn's time
 * whatever the loop shape, above the 0.5 it is held to; with the kernels it takes 0.3-0.5,
 * and MinMaxScaler and MaxAbsScaler well under that (docs/PERFORMANCE.md).
 *
 * WebAssembly reaches only its own memory, so callers copy a block of input in
 * (TypedArray.set, a memcpy, as fast as the copy any transform returning new columns
 * pays anyway), run kernels on it while it sits in cache, and copy the result out into
 * the new column. The memory grows to the largest block asked for and stays: the
 * callers bound their blocks (a few MiB).
 */
import { KERNELS_WASM_BASE64 } from "./kernels-wasm.js";

/**
 * Pointers are byte offsets into the memory, 16-byte aligned; lengths are even numbers of doubles.
 * The kernels are WebAssembly exports, plain functions that use no `this`: properties, not methods.
 */
export interface Kernels {
  /** Adds each row's Σx² into norms and raises its peak to its largest x². */
  readonly norms_sum_sq: (
    data: number,
    stride: number,
    width: number,
    norms: number,
    peaks: number,
    len: number,
  ) => void;
  /** Adds each row's Σ|x| into norms and raises its peak to its largest |x|. */
  readonly norms_sum_abs: (
    data: number,
    stride: number,
    width: number,
    norms: number,
    peaks: number,
    len: number,
  ) => void;
  /** Raises each row's norm to its largest |x| (a max norm is its own peak). */
  readonly norms_max_abs: (data: number, stride: number, width: number, norms: number, len: number) => void;
  /**
   * Finishes the norms in place (sqrt, zero-scale rule), 1/norm into factors. Result bits:
   * NON_FINITE_NORM if a norm was NaN or infinite, MAY_REACH_NORM if a row's peak is
   * (nearly) all of its norm, so a value may be as large as the norm.
   */
  readonly norms_to_factors: (norms: number, factors: number, peaks: number, len: number, sqrt: number) => number;
  /** x · factor, but exactly ±1 where |x| is the row's norm. */
  readonly scale_rows: (
    data: number,
    stride: number,
    width: number,
    norms: number,
    factors: number,
    len: number,
  ) => void;
  /** x · factor, for rows where no |x| is the norm. */
  readonly multiply_rows: (data: number, stride: number, width: number, factors: number, len: number) => void;
  readonly bounds: (p: number, len: number) => void;
  readonly abs_max: (p: number, len: number) => void;
  readonly scale_shift: (p: number, len: number, s: number, m: number) => void;
  readonly scale_shift_clip: (p: number, len: number, s: number, m: number, a: number, b: number) => void;
  readonly divide_by: (p: number, len: number, s: number) => void;
  /** dst[i] = (Math.exp(a·src[i]) - s) / d, with exp bit for bit Math.exp's; returns Σ dst[i]; any n. */
  readonly exp_affine_sum: (src: number, n: number, a: number, s: number, d: number, dst: number) => number;
  /** Σ (src[i] - mean)²; any n. */
  readonly squared_deviation_sum: (src: number, n: number, mean: number) => number;
}

/** Bits of the result of norms_to_factors. */
export const NON_FINITE_NORM = 1;
export const MAY_REACH_NORM = 2;

/** Byte offset of the data area; below it, the running bounds of `bounds` and `abs_max` and the kernels' constants. */
export const DATA_START = 512;
const PAGE_BYTES = 65536;

// Node has WebAssembly, but neither lib ES2023 nor @types/node 20 types its classes.
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { readonly exports: Record<string, unknown> };
}
const { Module, Instance } = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

interface Loaded {
  readonly kernels: Kernels;
  readonly memory: WasmMemory;
}

let compiled: object | undefined;
let shared: Loaded | undefined;

function instantiate(): Loaded {
  // Synchronous compile, once: the module is a few KB, and the engine's API is synchronous.
  compiled ??= new Module(Uint8Array.from(atob(KERNELS_WASM_BASE64), (ch) => ch.charCodeAt(0)));
  const { exports } = new Instance(compiled);
  return { kernels: exports as unknown as Kernels, memory: exports.memory as WasmMemory };
}

function withRoom({ kernels, memory }: Loaded, bytes: number): { kernels: Kernels; heap: Float64Array } {
  const missing = DATA_START + bytes - memory.buffer.byteLength;
  if (missing > 0) memory.grow(Math.ceil(missing / PAGE_BYTES));
  return { kernels, heap: new Float64Array(memory.buffer) };
}

/**
 * The thread's kernels, with room for `bytes` of data from DATA_START, and a view of the
 * whole memory (a new view each call: growing the memory detaches the old one).
 */
export function kernelsWithRoom(bytes: number): { kernels: Kernels; heap: Float64Array } {
  shared ??= instantiate();
  return withRoom(shared, bytes);
}

/**
 * Kernels with a memory of their own, grown as asked, for a caller that needs a large
 * area for a while (PowerTransformer's copies of a column): the memory goes when this
 * object does, instead of staying with the thread. Growing detaches earlier views, so
 * one user at a time.
 */
export class PrivateKernels {
  readonly #loaded = instantiate();

  withRoom(bytes: number): { kernels: Kernels; heap: Float64Array } {
    return withRoom(this.#loaded, bytes);
  }
}

/** Doubles rounded up to an even count, the kernels' unit. */
export function evenLength(len: number): number {
  return len + (len & 1);
}
