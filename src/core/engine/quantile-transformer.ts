/**
 * QuantileTransformer (docs/transforms.md#quantiletransformer). Fit: n_quantiles_ from the row
 * count (NaN rows included), references = linspace(0, 1), per column an optional seeded
 * subsample, nanpercentile at every reference, running maximum. Transform: see
 * ./quantile-interp.ts.
 */
import type { Params } from "../contract/params.js";
import { encodeArray, fittedColumns, FittedStateError } from "./fitted-number.js";
import type { QuantileTransformerFitted } from "./fitted-state.js";
import { copyNonNaN, percentileSorted } from "./percentile.js";
import { inverseQuantileColumn, quantileTransformColumn, type QuantileColumnFit } from "./quantile-interp.js";
import { RandomState } from "./random-state.js";
import type { FeatureMatrix, ProgressListener } from "./types.js";
import { mapColumns } from "./column-alloc.js";

/** numpy.linspace(0, 1, n): i·(1/(n-1)), the last one exactly 1. */
export function references(n: number): Float64Array {
  const r = new Float64Array(n);
  if (n > 1) {
    const step = 1 / (n - 1);
    for (let i = 0; i < n - 1; i++) r[i] = i * step;
    r[n - 1] = 1;
  }
  return r;
}

export function fitQuantileTransformer(
  params: Params<"QuantileTransformer">,
  features: FeatureMatrix,
  onProgress?: ProgressListener,
): QuantileTransformerFitted {
  const { columns, names } = features;
  const width = columns.length;
  const rows = columns[0].length;
  const nQuantiles = Math.max(1, Math.min(params.n_quantiles, rows));
  const refs = references(nQuantiles);
  // nanpercentile gets r·100 and divides by 100 again; the round trip can move the last bit.
  const probabilities = refs.map((r) => (r * 100) / 100);
  const subsampled = params.subsample < rows;
  const sampleSize = subsampled ? params.subsample : rows;
  // scikit-learn seeds a fresh RandomState with random_state, or uses numpy's global one
  // (different on every run) when it is None: a random seed is the equivalent.
  const rng = subsampled ? new RandomState(params.random_state ?? Math.floor(Math.random() * 2 ** 32)) : null;
  const work = subsampled ? new Uint32Array(rows) : null;
  const picked = subsampled ? new Uint32Array(sampleSize) : null;
  const sample = new Float64Array(sampleSize);
  const sorted = new Float64Array(sampleSize);
  const quantiles: ReturnType<typeof encodeArray>[] = [];
  for (let c = 0; c < width; c++) {
    const col = columns[c];
    let source = col;
    if (rng && work && picked) {
      rng.choiceWithoutReplacement(rows, sampleSize, work, picked);
      for (let i = 0; i < sampleSize; i++) sample[i] = col[picked[i]];
      source = sample;
    }
    const m = copyNonNaN(source, sorted);
    const values = sorted.subarray(0, m).sort();
    const q = new Float64Array(nQuantiles);
    for (let i = 0; i < nQuantiles; i++) q[i] = percentileSorted(values, m, probabilities[i]);
    // np.maximum.accumulate: percentile rounding must not make the sequence decrease.
    for (let i = 1; i < nQuantiles; i++) {
      const prev = q[i - 1];
      if (prev >= q[i] || prev !== prev) q[i] = prev;
    }
    quantiles.push(encodeArray(q));
    onProgress?.((c + 1) / width);
  }
  return {
    type: "QuantileTransformer",
    params,
    feature_names_in_: [...names],
    n_features_in_: width,
    n_quantiles_: nQuantiles,
    quantiles_: quantiles,
    references_: encodeArray(refs),
  };
}

export function applyQuantileTransformer(
  fitted: QuantileTransformerFitted,
  columns: readonly Float64Array[],
): Float64Array[] {
  return eachColumn(fitted, columns, quantileTransformColumn);
}

/** inverse_transform: from the output distribution back through references_ to quantiles_. */
export function invertQuantileTransformer(
  fitted: QuantileTransformerFitted,
  columns: readonly Float64Array[],
): Float64Array[] {
  return eachColumn(fitted, columns, inverseQuantileColumn);
}

function eachColumn(
  fitted: QuantileTransformerFitted,
  columns: readonly Float64Array[],
  map: (col: Float64Array, fit: QuantileColumnFit, out: Float64Array) => Float64Array,
): Float64Array[] {
  const width = fitted.n_features_in_;
  const n = fitted.n_quantiles_;
  const refs = fittedColumns(fitted.references_, n, "references_");
  if (fitted.quantiles_.length !== width) {
    throw new FittedStateError(`quantiles_ has ${fitted.quantiles_.length} columns for ${width} feature columns`);
  }
  const normal = fitted.params.output_distribution === "normal";
  return mapColumns(columns, (col, c, out) =>
    map(col, { q: fittedColumns(fitted.quantiles_[c], n, `quantiles_[${c}]`), r: refs, normal }, out),
  );
}
