/**
 * `describe(df)`: pandas' `DataFrame.describe()` for a danfo DataFrame. danfo's own
 * `df.describe()` gives NaN for the mean and std of any column with one missing value,
 * and computes in float32; this one skips missing values as pandas does and keeps float64.
 */
import { DataFrame } from "danfojs-node";
import { tableFromDataFrame, type DataFrameSource } from "../core/formats/danfo.js";
import { summarize, type CategorySummary, type NumericSummary } from "./summary-stats.js";

const NUMBER_ROWS = ["count", "mean", "std", "min", "25%", "50%", "75%", "max"];
const CATEGORY_ROWS = ["count", "unique", "top", "freq"];

function numberCells(s: NumericSummary): number[] {
  return [s.count, s.mean, s.std, s.min, s.q25, s.median, s.q75, s.max];
}

function categoryCells(s: CategorySummary): (number | string | null)[] {
  return [s.count, s.unique, s.top ?? null, s.top === undefined ? null : s.freq];
}

/**
 * Summary statistics per column, as pandas computes them: missing values skipped, sample
 * standard deviation (ddof 1), quartiles interpolated linearly. Like pandas, the numeric
 * columns are described (rows count, mean, std, min, 25%, 50%, 75%, max); a frame without
 * one describes its text and true/false columns (count, unique, top, freq).
 *
 * @example
 * import { describe, readCsv } from "mdps/danfo";
 * describe(await readCsv("data/wine.csv")).print();
 */
export function describe(df: DataFrameSource): DataFrame {
  const table = tableFromDataFrame(df);
  const numeric = table.columns.filter((c) => c.kind === "number");
  const chosen = numeric.length > 0 ? numeric : table.columns;
  if (chosen.length === 0) throw new RangeError("describe: the frame has no columns to describe");
  const summaries = chosen.map(summarize);
  const index = numeric.length > 0 ? NUMBER_ROWS : CATEGORY_ROWS;
  const cells = summaries.map((s) => (s.kind === "number" ? numberCells(s) : categoryCells(s)));
  const rows = index.map((_, r) => cells.map((column) => column[r] ?? null));
  return new DataFrame(rows, { columns: chosen.map((c) => c.name), index });
}
