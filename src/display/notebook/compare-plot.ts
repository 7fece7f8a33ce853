/**
 * Before/after distribution plots: one row per feature, the input's histogram on the
 * left and the transformed one on the right, each with its own scales (a scaler moves
 * and stretches the axis, which is the point of looking). The spec is Vega-Lite
 * (render/distributions-spec.ts), rendered to SVG headless by Vega in Node, so the
 * notebook stores a picture that GitHub shows as is.
 */
import type { ColumnSource } from "../render/histogram.js";
import { distributionsSpec, type CompareOptions } from "../render/distributions-spec.js";
import { renderVegaLiteSvg, type VegaLiteSpec } from "../render/vega-svg.js";
import { formatNumber } from "../render/html.js";
import { labelledInputs, type FittedSummary, type PlotInput } from "./joint-plot.js";
import { SvgChart } from "./svg-chart.js";

export { distributionsSpec, type CompareOptions };

/** The chart's alt text: "Histograms of income, balance: before and after (StandardScaler)". */
function describe(spec: VegaLiteSpec, sets: string, options: CompareOptions): string {
  const values = (spec.data as { values: Array<{ feature: string }> }).values;
  const features = [...new Set(values.map((v) => v.feature))];
  return `Histograms of ${features.join(", ")}: ${sets}${options.title ? ` (${options.title})` : ""}`;
}

/** The spec of `compareDistributions` (two columns: before and after). */
export function comparisonSpec(before: ColumnSource, after: ColumnSource, options: CompareOptions = {}): VegaLiteSpec {
  const [beforeLabel, afterLabel] = options.labels ?? ["before", "after"];
  if (beforeLabel === afterLabel) throw new Error(`labels must differ, got "${beforeLabel}" twice`);
  return distributionsSpec({ [beforeLabel]: before, [afterLabel]: after }, options);
}

/**
 * Draws each feature's distribution before and after a transform as one SVG.
 *
 * @example
 * const chart = await compareDistributions(trainDf, await job.dataframe(), { columns: ["age", "income"] });
 * show(chart); // inline in a notebook; chart.svg is the SVG text anywhere
 */
export async function compareDistributions(
  before: ColumnSource,
  after: ColumnSource,
  options: CompareOptions = {},
): Promise<SvgChart> {
  const spec = comparisonSpec(before, after, options);
  const [beforeLabel, afterLabel] = options.labels ?? ["before", "after"];
  return new SvgChart(await renderVegaLiteSvg(spec), spec, describe(spec, `${beforeLabel} and ${afterLabel}`, options));
}

/** "λ = 0.21" under each feature of a job that fitted lambdas (PowerTransformer), as scikit-learn's gallery titles them. */
function fittedNotes(fitted: FittedSummary | undefined): Record<string, string> | undefined {
  const lambdas = fitted?.lambdas_;
  const features = fitted?.feature_names_in_;
  if (!Array.isArray(lambdas) || !Array.isArray(features)) return undefined;
  return Object.fromEntries(
    features.map((feature, i) => {
      const lambda = lambdas[i] as unknown;
      return [String(feature), typeof lambda === "number" ? `λ = ${formatNumber(Math.round(lambda * 100) / 100)}` : ""];
    }),
  );
}

/**
 * Histograms of several data sets side by side: the first in grey, the others in colour.
 * Each is data, a Blob or a Job (a PowerTransformer job's lambda is written under its panels).
 *
 * @example
 * show(await plotDistributions({ original: df, StandardScaler: a, RobustScaler: b }, { columns: ["income"] }));
 */
export async function plotDistributions(
  sources: Readonly<Record<string, PlotInput>> | readonly PlotInput[],
  options: CompareOptions = {},
): Promise<SvgChart> {
  const inputs = await labelledInputs(sources);
  const data = Object.fromEntries(Object.entries(inputs).map(([name, input]) => [name, input.data]));
  const notes: Record<string, Record<string, string>> = {};
  for (const [name, input] of Object.entries(inputs)) {
    const fitted = fittedNotes(input.fitted);
    if (fitted || options.notes?.[name]) notes[name] = { ...fitted, ...options.notes?.[name] };
  }
  const spec = distributionsSpec(data, { ...options, notes });
  return new SvgChart(await renderVegaLiteSvg(spec), spec, describe(spec, Object.keys(data).join(", "), options));
}
