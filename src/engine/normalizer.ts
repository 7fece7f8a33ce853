/**
 * Normalizer (sklearn-semantics.md section 5): each row divided by its own l1, l2 or max
 * norm over the feature columns, with the zero-scale rule. Stateless. The data is
 * column-major, so rows are handled in blocks small enough to stay in cache: a block of
 * every column is copied into the SIMD kernels' memory, its norms are accumulated column
 * by column, the block is multiplied in place by 1/norm (within two ulps of the quotient
 * scikit-learn computes, and exactly ±1 where that is; see kernels.wat) and copied out,
 * and every input value is read from memory once.
 */
import type { Params } from "../contract/params.js";
import type { NormalizerFitted } from "./fitted-state.js";
import { checkValues } from "./input-checks.js";
import type { FeatureMatrix } from "./types.js";
import { allocColumn } from "./column-alloc.js";
import { DATA_START, evenLength, kernelsWithRoom, type Kernels } from "./simd/wasm-kernels.js";

type Norm = Params<"Normalizer">["norm"];

/**
 * Bytes of input per block (rows x columns x 8): the copy of the block is read three
 * times (norms, scaling, copy out), so it has to stay in L2 (2 MiB a core here). Each
 * block costs two TypedArray.set calls a column (~75 ns each), so fewer, longer blocks pay
 * less for them: 512 KiB took 100,000 x 50 from 15.6 to 13.7 ms (best of 48) and 20,000
 * x 200 from 20.8 to 14.5 against 256 KiB; 1 MiB gained nothing more at 50 columns; 64
 * KiB was 10-15% slower (short runs per column defeat the prefetcher).
 */
const BLOCK_BYTES = 512 * 1024;
/** At least this many rows a block (shorter runs per column defeat the prefetcher)... */
const MIN_BLOCK_ROWS = 256;
/**
 * ...unless the data is so wide that they would not fit here: the kernels' memory keeps
 * its largest size for the thread's life, so it stays bounded (very wide data then goes
 * through in blocks of a few rows).
 */
const MAX_SCRATCH_BYTES = 16 << 20;

export function fitTransformNormalizer(
  params: Params<"Normalizer">,
  features: FeatureMatrix,
): { columns: Float64Array[]; fitted: NormalizerFitted } {
  const fitted: NormalizerFitted = {
    type: "Normalizer",
    params,
    feature_names_in_: [...features.names],
    n_features_in_: features.columns.length,
  };
  const { columns, nonFiniteNorm } = normalizeRows(features.columns, params.norm);
  // A NaN or infinite norm comes from NaN or ±Infinity in the row, which checkValues names
  // and refuses; otherwise it was an overflow of Σx², kept as scikit-learn keeps it.
  if (nonFiniteNorm) checkValues("Normalizer", features);
  return { columns, fitted };
}

export function applyNormalizer(fitted: NormalizerFitted, columns: readonly Float64Array[]): Float64Array[] {
  return normalizeRows(columns, fitted.params.norm).columns;
}

const ACCUMULATE = {
  l1: "norms_sum_abs",
  l2: "norms_sum_sq",
  max: "norms_max_abs",
} as const satisfies Record<Norm, keyof Kernels>;

function normalizeRows(
  columns: readonly Float64Array[],
  norm: Norm,
): { columns: Float64Array[]; nonFiniteNorm: boolean } {
  const rows = columns[0].length;
  const width = columns.length;
  const out = columns.map(() => allocColumn(rows));
  const rowsIn = (bytes: number) => Math.floor(bytes / (8 * (width + 2)));
  const wanted = Math.max(rowsIn(BLOCK_BYTES), Math.min(MIN_BLOCK_ROWS, rowsIn(MAX_SCRATCH_BYTES)));
  const block = evenLength(Math.max(1, Math.min(rows, wanted)));
  // The scratch: `width` columns of `block` doubles, then the block's norms and factors.
  const stride = block * 8;
  const norms = DATA_START + width * stride;
  const factors = norms + stride;
  const { kernels, heap } = kernelsWithRoom((width + 2) * stride);
  const accumulate = kernels[ACCUMULATE[norm]];
  // Each column's slot in the scratch, made once rather than once a block.
  const slots = columns.map((_, c) => heap.subarray((DATA_START + c * stride) / 8, (DATA_START + (c + 1) * stride) / 8));
  let nonFiniteNorm = false;
  for (let start = 0; start < rows; start += block) {
    const len = Math.min(rows - start, block);
    for (let c = 0; c < width; c++) {
      slots[c].set(columns[c].subarray(start, start + len));
      if (len & 1) slots[c][len] = 0; // the kernels take pairs; a zero adds nothing to a norm
    }
    accumulate(DATA_START, stride, width, norms, evenLength(len));
    if (kernels.norms_to_factors(norms, factors, evenLength(len), norm === "l2" ? 1 : 0)) nonFiniteNorm = true;
    kernels.scale_rows(DATA_START, stride, width, norms, factors, evenLength(len));
    for (let c = 0; c < width; c++) out[c].set(len === block ? slots[c] : slots[c].subarray(0, len), start);
  }
  return { columns: out, nonFiniteNorm };
}
