/**
 * `plotComparison(job)`: the before/after plot of a finished job, fetching what it
 * needs from the job handle (its input blob, its output DataFrame, its feature columns).
 */
import { compareDistributions, type CompareOptions } from "./compare-plot.js";
import type { ColumnSource } from "../render/histogram.js";
import type { SvgChart } from "./svg-chart.js";

/** The part of a job handle the plot needs; the Session's Job is one. */
export interface ComparableJob {
  readonly id: string;
  readonly input?: { download(): Promise<ColumnSource> } | undefined;
  result(): Promise<{
    readonly fitted?: { readonly type: string; readonly feature_names_in_: readonly string[] } | undefined;
    readonly feature_columns?: readonly string[] | undefined;
  }>;
  dataframe(): Promise<ColumnSource>;
}

export interface PlotComparisonOptions extends CompareOptions {
  /** The input data, when the job handle does not know its input blob (e.g. `session.job(id)`). */
  before?: ColumnSource;
}

/**
 * Draws each feature's distribution before and after the job's transform.
 *
 * @example
 * const chart = await plotComparison(job, { columns: ["income"] });
 * chart // the last expression of a cell shows the picture
 */
export async function plotComparison(job: ComparableJob, options: PlotComparisonOptions = {}): Promise<SvgChart> {
  const { before: given, ...compare } = options;
  if (!given && !job.input) {
    throw new Error(
      `job ${job.id} does not know its input here (it was not sent from this session); ` +
        "pass the input data as plotComparison(job, { before: inputDataFrame })",
    );
  }
  const [result, before, after] = await Promise.all([job.result(), given ?? job.input!.download(), job.dataframe()]);
  return compareDistributions(before, after, {
    ...compare,
    // Without a fitted state (a service may return none) the result's feature columns, else every numeric one.
    columns: compare.columns ?? (result.fitted?.feature_names_in_ ?? result.feature_columns)?.slice(0, 12),
    title: compare.title ?? result.fitted?.type ?? "after",
  });
}
