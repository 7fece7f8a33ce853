/**
 * QuantileTransformer's grid as a table: one row per reference (the quantile level each
 * feature's value maps to), one column per feature, the middle rows elided as pandas
 * elides a long frame. What the fitted state holds as `[2 × 569]` becomes the mapping it
 * is: "mean_area 420.3 is the 0.25 quantile".
 */
import type { FittedStateJson } from "../../src/index.js";
import type { TableOutput } from "../commands/types.js";
import { formatCell } from "./cells.js";

/** Rows kept at each end; the rest is one "…" row. */
const EDGE_ROWS = 5;

export function quantileTable(fitted: FittedStateJson, edgeRows = EDGE_ROWS): TableOutput | undefined {
  const state = fitted as Partial<Record<string, unknown>>;
  const quantiles = state.quantiles_;
  const references = state.references_;
  if (!Array.isArray(quantiles) || !Array.isArray(references)) return undefined;
  const features = fitted.feature_names_in_;
  // One array of n_quantiles values per feature (the wire's transpose of scikit-learn's grid).
  const columns = quantiles as ReadonlyArray<ReadonlyArray<unknown>>;
  const count = references.length;
  const row = (i: number) => [formatCell(references[i]), ...columns.map((c) => cellOf(c[i]))];
  const elided = count > 2 * edgeRows + 1;
  const indices = elided ? [...range(0, edgeRows), -1, ...range(count - edgeRows, count)] : range(0, count);
  return {
    type: "table",
    title: `quantiles_: each feature's value at each reference (${count} quantiles × ${features.length} features)`,
    columns: ["references_", ...features],
    rows: indices.map((i) => (i < 0 ? ["…", ...features.map(() => "…")] : row(i))),
    numeric: [true, ...features.map(() => true)],
    footer: elided ? `${count - 2 * edgeRows} rows in the middle left out` : undefined,
  };
}

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);
}

function cellOf(value: unknown): string {
  return value === null || value === undefined ? "NaN" : formatCell(value);
}
