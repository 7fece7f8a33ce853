/**
 * scikit-learn 1.2.1's QuantileTransformer uses at most as many quantiles as there are
 * rows (rows with missing values count) and warns when asked for more. One rule and one
 * warning code for the job's warnings (the engine) and the client's checks before sending.
 */
export interface QuantilesCapped {
  readonly code: "n_quantiles_capped";
  /** What happened and what to do, in mdps's words. */
  readonly explanation: string;
  /** scikit-learn's own warning text (sklearn/preprocessing/_data.py, QuantileTransformer.fit). */
  readonly sklearnText: string;
}

export function quantilesCapped(nQuantiles: number, rows: number): QuantilesCapped | undefined {
  if (nQuantiles <= rows) return undefined;
  return {
    code: "n_quantiles_capped",
    explanation: `n_quantiles ${nQuantiles} is more than the ${rows} rows, so ${rows} quantiles were used: pass n_quantiles ≤ ${rows} to say so, or send more rows`,
    sklearnText: `n_quantiles (${nQuantiles}) is greater than the total number of samples (${rows}). n_quantiles is set to n_samples.`,
  };
}
