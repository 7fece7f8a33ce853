/**
 * Before/after distribution plots: one row per feature, the input's histogram on the
 * left and the transformed one on the right, each with its own scales (a scaler moves
 * and stretches the axis, which is the point of looking). The spec is Vega-Lite,
 * rendered to SVG headless by Vega in Node, so the notebook stores a picture that
 * GitHub shows as is.
 */
import { histogram, numericColumn, numericColumnNames, type ColumnSource } from "./histogram.js";
import { renderVegaLiteSvg, type VegaLiteSpec } from "./vega-svg.js";
import { SvgChart } from "./svg-chart.js";

export interface CompareOptions {
  /** Features to plot. Default: numeric columns present in both, at most 12. */
  columns?: readonly string[];
  /** Bars per histogram. Default 30. */
  bins?: number;
  /** Size of one panel in pixels. Default 240 × 90. */
  width?: number;
  height?: number;
  /** Chart title, e.g. "StandardScaler". */
  title?: string;
  /** Column headers. Default "before" and "after". */
  labels?: readonly [string, string];
}

const DEFAULT_MAX_COLUMNS = 12;

function pickColumns(before: ColumnSource, after: ColumnSource, options: CompareOptions): string[] {
  if (options.columns && options.columns.length > 0) return [...options.columns];
  const afterNames = new Set(numericColumnNames(after));
  const both = numericColumnNames(before).filter((name) => afterNames.has(name));
  if (both.length === 0) {
    throw new Error("no numeric column is in both data sets; pass { columns: [...] } to choose the features to plot");
  }
  return both.slice(0, DEFAULT_MAX_COLUMNS);
}

/** The Vega-Lite spec of the comparison (pure: histograms are computed here). */
export function comparisonSpec(before: ColumnSource, after: ColumnSource, options: CompareOptions = {}): VegaLiteSpec {
  const columns = pickColumns(before, after, options);
  const [beforeLabel, afterLabel] = options.labels ?? ["before", "after"];
  const values: Array<Record<string, unknown>> = [];
  for (const feature of columns) {
    for (const [stage, source] of [[beforeLabel, before], [afterLabel, after]] as const) {
      const { bins, missing } = histogram(numericColumn(source, feature), options.bins ?? 30);
      const label = missing > 0 ? `${feature} (${missing} missing)` : feature;
      for (const bin of bins) values.push({ feature: label, order: columns.indexOf(feature), stage, ...bin });
    }
  }
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    ...(options.title ? { title: options.title } : {}),
    data: { values },
    facet: {
      row: { field: "feature", type: "nominal", title: null, sort: { field: "order" }, header: { labelAngle: 0, labelAlign: "left", labelFontWeight: "bold" } },
      column: { field: "stage", type: "nominal", title: null, sort: [beforeLabel, afterLabel], header: { labelFontSize: 12 } },
    },
    spec: {
      width: options.width ?? 240,
      height: options.height ?? 90,
      mark: { type: "bar", binSpacing: 0 },
      encoding: {
        x: { field: "start", bin: "binned", type: "quantitative", title: null, axis: { tickCount: 5 } },
        x2: { field: "end" },
        y: { field: "count", type: "quantitative", title: null, axis: { tickCount: 3 } },
        color: {
          field: "stage",
          type: "nominal",
          legend: null,
          scale: { domain: [beforeLabel, afterLabel], range: ["#9ca3af", "#2563eb"] },
        },
      },
    },
    resolve: { scale: { x: "independent", y: "independent" } },
    config: { background: "white", view: { stroke: "#e5e7eb" } },
  };
}

/**
 * Draws each feature's distribution before and after a transform as one SVG.
 *
 * @example
 * const chart = await compareDistributions(trainDf, await job.dataframe(), { columns: ["age", "income"] });
 * chart.show(); // inline in a tslab notebook; chart.svg is the SVG text anywhere
 */
export async function compareDistributions(
  before: ColumnSource,
  after: ColumnSource,
  options: CompareOptions = {},
): Promise<SvgChart> {
  const spec = comparisonSpec(before, after, options);
  return new SvgChart(await renderVegaLiteSvg(spec), spec);
}
