/**
 * Before/after distribution plots: one row per feature, the input's histogram on the
 * left and the transformed one on the right, each with its own scales (a scaler moves
 * and stretches the axis, which is the point of looking). The spec is Vega-Lite,
 * rendered to SVG headless by Vega in Node, so the notebook stores a picture that
 * GitHub shows as is.
 */
import { classKey, colouring, NOMINAL_MAX, type Colouring } from "../render/colouring.js";
import { finiteRange, histogram, numericColumn, numericColumnNames, type ColumnSource } from "../render/histogram.js";
import { renderVegaLiteSvg, type VegaLiteSpec } from "../render/vega-svg.js";
import { percentiles } from "../render/plot-data.js";
import { SvgChart } from "./svg-chart.js";

export interface CompareOptions {
  /** Features to plot. Default: numeric columns present in every data set, at most 12. */
  columns?: readonly string[];
  /** Bars per histogram. Default 30. */
  bins?: number;
  /** Size of one panel in pixels. Default 240 × 90 for two data sets, narrower for more. */
  width?: number;
  height?: number;
  /** Chart title, e.g. "StandardScaler". */
  title?: string;
  /** Column headers of `compareDistributions`. Default "before" and "after". */
  labels?: readonly [string, string];
  /**
   * Draw the data sets over each other in one panel per feature, with the same bins and
   * the share of rows per bin: for data on one scale (train and test), where a shift
   * should show. Default false: side by side, each with its own scales (before/after).
   */
  overlay?: boolean;
  /**
   * One x axis for the panels being compared: "feature" gives each feature one range
   * across the data sets (bars line up, so a transform's stretch shows), "all" one range
   * for every panel (only meaningful when the data sets share a scale). Default: each
   * panel its own range.
   */
  sharedX?: "feature" | "all";
  /** A fixed x range for every panel; values outside it are left out (and counted in the title). */
  domain?: readonly [number, number];
  /** Counts on a symmetric-log axis, so a bin of 3 beside a bin of 3,000 still shows. */
  log?: boolean;
  /** Percentiles `[low, high]` of each panel's values to keep, e.g. `[0, 99]` to zoom past outliers. */
  clip?: readonly [number, number];
  /**
   * A column to split each panel's bars by, stacked (e.g. the target): at most ten
   * classes (text or whole numbers), with a legend. Looked up in each data
   * set, else in the first that has it (the rows are the same rows). Side by side only.
   */
  color?: string;
}

const DEFAULT_MAX_COLUMNS = 12;
const BASE_COLOR = "#9ca3af";
const MISSING_CLASS = "(missing)";
const PALETTE = ["#2563eb", "#16a34a", "#d97706", "#9333ea", "#dc2626", "#0891b2", "#db2777", "#65a30d", "#4f46e5"];
/** A colour for each of NOMINAL_MAX classes and "(missing)", none repeated. */
const CLASS_PALETTE = [...PALETTE, "#78716c", "#0d9488"];

function pickColumns(sources: readonly ColumnSource[], options: CompareOptions): string[] {
  if (options.columns && options.columns.length > 0) return [...options.columns];
  const [first, ...rest] = sources.map((s) => numericColumnNames(s));
  const common = (first ?? []).filter((name) => rest.every((names) => names.includes(name)));
  if (common.length === 0) {
    throw new Error("no numeric column is in every data set; pass { columns: [...] } to choose the features to plot");
  }
  return common.slice(0, DEFAULT_MAX_COLUMNS);
}

/**
 * The Vega-Lite spec of a grid of histograms, each panel with its own scales: one row
 * per feature and one column per data set (in the order given), or, past three data
 * sets, one row per data set. Pure: binning happens here.
 */
export function distributionsSpec(
  sources: Readonly<Record<string, ColumnSource>>,
  options: CompareOptions = {},
): VegaLiteSpec {
  const stages = Object.keys(sources);
  if (stages.length === 0) throw new Error("nothing to plot: pass at least one data set");
  const columns = pickColumns(Object.values(sources), options);
  const classesOf = classColouring(sources, options);
  const values: Array<Record<string, unknown>> = [];
  const everything = options.sharedX === "all" ? overallRange(sources, stages, columns, options.clip) : undefined;
  columns.forEach((feature, order) => {
    const raw = stages.map((stage) => numericColumn(sources[stage]!, feature));
    const data = raw.map((column) => clipped(column, options.clip));
    // Overlaid data sets share their bins, so bars line up and a shift shows.
    const ranges = data.map((d) => finiteRange(d)).filter((r) => Number.isFinite(r.min));
    const shared: readonly [number, number] | undefined =
      options.domain ??
      ((options.overlay || options.sharedX === "feature") && ranges.length > 0
        ? [Math.min(...ranges.map((r) => r.min)), Math.max(...ranges.map((r) => r.max))]
        : options.sharedX === "all"
          ? everything
          : undefined);
    stages.forEach((stage, i) => {
      const { bins, missing } = histogram(data[i]!, options.bins ?? 30, shared);
      const outside = shared ? countOutside(data[i]!, shared) : 0;
      const notes = [
        missing > 0 && !options.overlay ? `${missing} missing` : "",
        outside > 0 ? `${outside} outside` : "",
      ];
      const note = notes.filter(Boolean).join(", ");
      const label = note ? `${feature} (${note})` : feature;
      if (classesOf) {
        const range = shared ?? rangeOf(data[i]!);
        for (const bin of classBins(
          raw[i]!,
          classesOf(i),
          clipBounds(raw[i]!, options.clip),
          options.bins ?? 30,
          range,
        ))
          values.push({ feature: label, order, stage, ...bin });
        return;
      }
      const total = bins.reduce((sum, b) => sum + b.count, 0) || 1;
      for (const bin of bins) values.push({ feature: label, order, stage, ...bin, share: bin.count / total });
    });
  });
  const colors = {
    domain: stages,
    range: [BASE_COLOR, ...stages.slice(1).map((_, i) => PALETTE[i % PALETTE.length] ?? BASE_COLOR)],
  };
  if (options.overlay) return overlaySpec(values, stages, colors, options);
  // Up to three data sets side by side, one row per feature; more would be too wide to
  // read, so then each data set gets a row and the features go across.
  const manyStages = stages.length > 3;
  const narrow = stages.length === 3 || (manyStages && columns.length > 2);
  const rowHeader = { labelAngle: 0, labelAlign: "left", labelFontWeight: "bold" };
  const columnHeader = { labelFontSize: 12, labelFontWeight: "bold" };
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    ...(options.title ? { title: options.title } : {}),
    data: { values },
    facet: manyStages
      ? {
          row: { field: "stage", type: "nominal", title: null, sort: stages, header: rowHeader },
          column: { field: "feature", type: "nominal", title: null, sort: { field: "order" }, header: columnHeader },
        }
      : {
          row: { field: "feature", type: "nominal", title: null, sort: { field: "order" }, header: rowHeader },
          column: { field: "stage", type: "nominal", title: null, sort: stages, header: columnHeader },
        },
    spec: {
      width: options.width ?? (narrow ? 150 : 240),
      height: options.height ?? (manyStages ? 60 : narrow ? 70 : 90),
      mark: { type: "bar", binSpacing: 0 },
      encoding: {
        x: {
          field: "start",
          bin: "binned",
          type: "quantitative",
          title: null,
          axis: { tickCount: narrow ? 3 : 5, labelFlush: true },
          ...(options.sharedX || options.domain ? { scale: { nice: false, zero: false } } : {}),
        },
        x2: { field: "end" },
        y: {
          field: "count",
          type: "quantitative",
          title: null,
          axis: { tickCount: 3 },
          ...(options.log ? { scale: { type: "symlog" } } : {}),
        },
        color: classesOf
          ? {
              field: "group",
              type: "nominal",
              title: options.color,
              sort: classNames(classesOf(0)),
              scale: { domain: classNames(classesOf(0)), range: CLASS_PALETTE },
              legend: { orient: "top" },
            }
          : { field: "stage", type: "nominal", legend: null, scale: colors },
      },
    },
    resolve: { scale: { x: "independent", y: "independent" } },
    config: { background: "white", view: { stroke: "#e5e7eb" } },
  };
}

/** The values of the `clip` percentiles (none without a clip). */
function clipBounds(values: Float64Array, clip: readonly [number, number] | undefined): [number, number] | undefined {
  if (!clip) return undefined;
  if (!(clip[0] < clip[1]))
    throw new Error(`clip must be two percentiles, low below high, such as [0, 99]; got [${clip.join(", ")}]`);
  return percentiles(values, clip) as [number, number];
}

/** The values inside the `clip` percentiles (all of them without a clip). */
function clipped(values: Float64Array, clip: readonly [number, number] | undefined): Float64Array {
  const bounds = clipBounds(values, clip);
  return bounds ? values.filter((v) => !(v < bounds[0] || v > bounds[1])) : values;
}

function rangeOf(values: Float64Array): [number, number] | undefined {
  const { min, max } = finiteRange(values);
  return Number.isFinite(min) ? [min, max] : undefined;
}

/** The classes of `options.color` for each data set, checked to be few; undefined without a colour. */
function classColouring(
  sources: Readonly<Record<string, ColumnSource>>,
  options: CompareOptions,
): ((i: number) => Colouring) | undefined {
  if (options.color === undefined) return undefined;
  if (options.overlay) {
    throw new Error(
      "color splits the bars of side-by-side panels; overlay already colours each data set: leave out one of them",
    );
  }
  const colourOf = colouring(Object.entries(sources), options.color);
  const { nominal, domain } = colourOf(0);
  if (!nominal || domain.length > NOMINAL_MAX) {
    throw new Error(
      `color: column "${options.color}" has ${nominal ? `${domain.length} values` : "values of a quantity"}; ` +
        `histograms split their bars by a column of at most ${NOMINAL_MAX} classes (text or whole numbers, e.g. the target)`,
    );
  }
  return colourOf;
}

/** A row's class as the colouring's domain names it, "(missing)" for none. */
const classOf = (value: unknown): number | string => classKey(value) ?? MISSING_CLASS;

/** The legend's entries: the classes in order, then "(missing)" when a row has none. */
function classNames(colour: Colouring): string[] {
  const missing = colour.values?.some((v) => classOf(v) === MISSING_CLASS) ?? false;
  return [...colour.domain.map(String), ...(missing ? [MISSING_CLASS] : [])];
}

/** One panel's bars split by class: each class's histogram over the panel's bins (`range`). */
function classBins(
  values: Float64Array,
  colour: Colouring,
  bounds: readonly [number, number] | undefined,
  binCount: number,
  range: readonly [number, number] | undefined,
): Array<{ start: number; end: number; count: number; group: string }> {
  if (!range) return [];
  const inside = (v: number) => Number.isFinite(v) && !(bounds && (v < bounds[0] || v > bounds[1]));
  const groups = new Map<unknown, number[]>();
  values.forEach((v, row) => {
    if (!inside(v)) return;
    const key = classOf(colour.values?.[row]);
    const members = groups.get(key) ?? [];
    members.push(v);
    groups.set(key, members);
  });
  return [...groups].flatMap(([key, members]) =>
    histogram(members, binCount, range).bins.map((bin) => ({ ...bin, group: String(key) })),
  );
}

function countOutside(values: Float64Array, [low, high]: readonly [number, number]): number {
  return values.reduce((n, v) => n + (v < low || v > high ? 1 : 0), 0);
}

/** One range over every feature of every data set, for `sharedX: "all"`. */
function overallRange(
  sources: Readonly<Record<string, ColumnSource>>,
  stages: readonly string[],
  columns: readonly string[],
  clip: readonly [number, number] | undefined,
): [number, number] | undefined {
  const ranges = stages.flatMap((stage) =>
    columns.map((c) => finiteRange(clipped(numericColumn(sources[stage]!, c), clip))),
  );
  const finite = ranges.filter((r) => Number.isFinite(r.min));
  return finite.length > 0 ? [Math.min(...finite.map((r) => r.min)), Math.max(...finite.map((r) => r.max))] : undefined;
}

/** One panel per feature, the data sets drawn over each other as shares of their rows. */
function overlaySpec(
  values: Array<Record<string, unknown>>,
  stages: readonly string[],
  colors: { domain: readonly string[]; range: readonly string[] },
  options: CompareOptions,
): VegaLiteSpec {
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    ...(options.title ? { title: options.title } : {}),
    data: { values },
    facet: {
      row: {
        field: "feature",
        type: "nominal",
        title: null,
        sort: { field: "order" },
        header: { labelAngle: 0, labelAlign: "left", labelFontWeight: "bold" },
      },
    },
    spec: {
      width: options.width ?? 420,
      height: options.height ?? 90,
      mark: { type: "bar", binSpacing: 0, opacity: 0.55 },
      encoding: {
        x: { field: "start", bin: "binned", type: "quantitative", title: null, axis: { tickCount: 8 } },
        x2: { field: "end" },
        y: { field: "share", type: "quantitative", title: null, stack: null, axis: { format: ".0%", tickCount: 3 } },
        color: {
          field: "stage",
          type: "nominal",
          title: null,
          sort: [...stages],
          scale: colors,
          legend: { orient: "top" },
        },
      },
    },
    resolve: { scale: { x: "independent", y: "independent" } },
    config: { background: "white", view: { stroke: "#e5e7eb" } },
  };
}

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

/**
 * Histograms of several data sets side by side: the first in grey, the others in colour.
 *
 * @example
 * show(await plotDistributions({ original: df, StandardScaler: a, RobustScaler: b }, { columns: ["income"] }));
 */
export async function plotDistributions(
  sources: Readonly<Record<string, ColumnSource>>,
  options: CompareOptions = {},
): Promise<SvgChart> {
  const spec = distributionsSpec(sources, options);
  return new SvgChart(await renderVegaLiteSvg(spec), spec, describe(spec, Object.keys(sources).join(", "), options));
}
