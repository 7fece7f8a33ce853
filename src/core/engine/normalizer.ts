/**
 * Normalizer (docs/transforms.md#normalizer): each row divided by its own l1, l2 or max
 * norm over the feature columns, with the zero-scale rule. Stateless. The data is
 * column-major, so rows are handled in blocks small enough to stay in cache: a block of
 * every column is copied into the SIMD kernels' memory, its norms are accumulated column
 * by column, the block is multiplied in place by 1/norm (within two ulps of the quotient
 * scikit-learn computes, and exactly ±1 where that is; see kernels.wat) and copied out,
 * and every input value is read from memory once (twice for very wide data, which goes
 * through in column groups: normalizerLayout).
 */
import type { Params } from "../contract/params.js";
import type { NormalizerFitted } from "./fitted-state.js";
import { checkValues } from "./input-checks.js";
import type { FeatureMatrix } from "./types.js";
import { allocColumns } from "./column-alloc.js";
import {
  DATA_START,
  MAY_REACH_NORM,
  NON_FINITE_NORM,
  evenLength,
  kernelsWithRoom,
  type Kernels,
} from "./simd/wasm-kernels.js";

type Norm = Params<"Normalizer">["norm"];

/** Per-row arrays after a block's columns in the scratch: norms, factors, peaks. */
const ROW_ARRAYS = 3;

/**
 * Bytes of input the kernels hold at a time (rows x columns x 8): it is read three times
 * (norms, scaling, copy out), so it has to stay in a core's L2 cache. Each block costs two
 * TypedArray.set calls a column, so fewer, longer blocks pay less for them, and short runs
 * per column defeat the prefetcher; larger blocks gain nothing once they leave L2
 * (`npm run bench` times the Normalizer at several shapes).
 */
const BLOCK_BYTES = 512 * 1024;
/**
 * Data so wide that a block of every column holds fewer rows than this goes through in
 * column groups instead: the runs per column would be too short (and too many calls).
 */
const MIN_ONE_PASS_ROWS = 512;
/** Rows a chunk when going by column groups: 32 KiB a column, norms and factors in L1. */
const GROUP_CHUNK_ROWS = 4096;

/**
 * How the rows and columns are cut: chunks of `rows` rows and, within a chunk, groups of
 * `columns` columns. Usually one group holds every column, and each value is read from
 * memory once. Wider data is read twice, group by group: once for the norms, once to
 * scale. Reading twice costs less than the short runs and many calls of blocks of every
 * column would, and the kernels' memory stays at a block whatever the width.
 */
export function normalizerLayout(rows: number, width: number): { rows: number; columns: number } {
  const onePassRows = Math.floor(BLOCK_BYTES / (8 * (width + ROW_ARRAYS)));
  if (onePassRows >= MIN_ONE_PASS_ROWS || onePassRows >= rows) {
    return { rows: evenLength(Math.max(1, Math.min(rows, onePassRows))), columns: width };
  }
  const chunk = evenLength(Math.min(rows, GROUP_CHUNK_ROWS));
  return { rows: chunk, columns: Math.max(1, Math.min(width, Math.floor(BLOCK_BYTES / (8 * chunk)))) };
}

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

type Accumulate = (data: number, stride: number, width: number, norms: number, peaks: number, len: number) => void;

/** The kernel that adds a block's columns into its norms (and peaks: norms_to_factors). */
function accumulator(kernels: Kernels, norm: Norm): Accumulate {
  if (norm === "l1") return kernels.norms_sum_abs;
  if (norm === "l2") return kernels.norms_sum_sq;
  // a max norm is its own peak: normalizeRows points peaks at the norms
  return (data, stride, width, norms, _peaks, len) => kernels.norms_max_abs(data, stride, width, norms, len);
}

function normalizeRows(
  columns: readonly Float64Array[],
  norm: Norm,
): { columns: Float64Array[]; nonFiniteNorm: boolean } {
  const rows = columns[0].length;
  const width = columns.length;
  const out = allocColumns(width, rows);
  const layout = normalizerLayout(rows, width);
  // The scratch: a group of columns, `layout.rows` doubles each, then the chunk's norms,
  // factors and peaks.
  const stride = layout.rows * 8;
  const norms = DATA_START + layout.columns * stride;
  const factors = norms + stride;
  const peaks = norm === "max" ? norms : factors + stride;
  const { kernels, heap } = kernelsWithRoom((layout.columns + ROW_ARRAYS) * stride);
  const accumulate = accumulator(kernels, norm);
  // Each group column's slot in the scratch, made once rather than once a block.
  const slots = Array.from({ length: layout.columns }, (_, j) =>
    heap.subarray((DATA_START + j * stride) / 8, (DATA_START + (j + 1) * stride) / 8),
  );
  const onePass = layout.columns === width;
  let nonFiniteNorm = false;
  for (let start = 0; start < rows; start += layout.rows) {
    const len = Math.min(rows - start, layout.rows);
    const pairs = evenLength(len);
    const copyIn = (first: number, count: number) => {
      for (let j = 0; j < count; j++) {
        // a whole column needs no subarray (an allocation a column counts when they are short)
        slots[j].set(len === rows ? columns[first + j] : columns[first + j].subarray(start, start + len));
        if (len & 1) slots[j][len] = 0; // the kernels take pairs; a zero adds nothing to a norm
      }
    };
    heap.fill(0, norms / 8, norms / 8 + pairs);
    heap.fill(0, peaks / 8, peaks / 8 + pairs);
    for (let first = 0; first < width; first += layout.columns) {
      const count = Math.min(layout.columns, width - first);
      copyIn(first, count);
      accumulate(DATA_START, stride, count, norms, peaks, pairs);
    }
    const found = kernels.norms_to_factors(norms, factors, peaks, pairs, norm === "l2" ? 1 : 0);
    if (found & NON_FINITE_NORM) nonFiniteNorm = true;
    // The check that makes a value as large as its norm exactly ±1 is a pass of its own;
    // only blocks that may hold such a value pay it: always under the max norm, under l1
    // and l2 only with a row of one non-zero (or all others negligible).
    const checkOnes = (found & MAY_REACH_NORM) !== 0;
    for (let first = 0; first < width; first += layout.columns) {
      const count = Math.min(layout.columns, width - first);
      if (!onePass) copyIn(first, count);
      if (checkOnes) kernels.scale_rows(DATA_START, stride, count, norms, factors, pairs);
      else kernels.multiply_rows(DATA_START, stride, count, factors, pairs);
      for (let j = 0; j < count; j++)
        out[first + j].set(len === layout.rows ? slots[j] : slots[j].subarray(0, len), start);
    }
  }
  return { columns: out, nonFiniteNorm };
}
