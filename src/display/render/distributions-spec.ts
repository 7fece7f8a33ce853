/**
 * The Vega-Lite spec of a grid of histograms: one row per feature and one column per
 * data set (past three data sets the other way round), each panel with its own scales
 * and a line of text under it (a fitted lambda, values missing or outside the range).
 * Pure: binning happens here. The headers come from the feature and data set names
 * alone, so per-panel counts can never split a feature into rows of its own.
 */
import { classBins, classColouring, classNames } from "./class-bins.js";
import { finiteRange, histogram, numericColumn, numericColumnNames, type ColumnSource } from "./histogram.js";
import { percentiles } from "./plot-data.js";
import type { VegaLiteSpec } from "./vega-svg.js";

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
  /** A fixed x range for every panel; values outside it are left out (and counted under the panel). */
  domain?: readonly [number, number];
  /**
   * A fixed x range for the panels of every data set after the first (the transformed
   * ones), e.g. scikit-learn's `[-3.5, 3.5]` for outputs mapped to a normal distribution;
   * the first keeps its own range (or `domain`).
   */
  transformedDomain?: readonly [number, number];
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
  /**
   * Text under a panel, by data set and feature: `{ "Box-Cox": { income: "λ = 0.21" } }`.
   * `plotDistributions` writes a PowerTransformer job's fitted lambda there by itself.
   */
  notes?: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

type Range = readonly [number, number];
type Row = Record<string, unknown>;

const DEFAULT_MAX_COLUMNS = 12;
const BASE_COLOR = "#9ca3af";
const PALETTE = ["#2563eb", "#16a34a", "#d97706", "#9333ea", "#dc2626", "#0891b2", "#db2777", "#65a30d", "#4f46e5"];
/** A colour for each of NOMINAL_MAX classes and "(missing)", none repeated. */
const CLASS_PALETTE = [...PALETTE, "#78716c", "#0d9488"];
const NOTE_COLOR = "#374151";
const BASE_CONFIG = { background: "white", view: { stroke: "#e5e7eb" } };

function pickColumns(sources: readonly ColumnSource[], options: CompareOptions): string[] {
  if (options.columns && options.columns.length > 0) return [...options.columns];
  const [first, ...rest] = sources.map((s) => numericColumnNames(s));
  const common = (first ?? []).filter((name) => rest.every((names) => names.includes(name)));
  if (common.length === 0) {
    throw new Error("no numeric column is in every data set; pass { columns: [...] } to choose the features to plot");
  }
  return common.slice(0, DEFAULT_MAX_COLUMNS);
}

function checkRange(name: string, range: Range | undefined): void {
  if (range && !(Number.isFinite(range[0]) && Number.isFinite(range[1]) && range[0] < range[1])) {
    throw new Error(`${name} must be two numbers, low below high, such as [-3.5, 3.5]; got [${range.join(", ")}]`);
  }
}

export function distributionsSpec(
  sources: Readonly<Record<string, ColumnSource>>,
  options: CompareOptions = {},
): VegaLiteSpec {
  const stages = Object.keys(sources);
  if (stages.length === 0) throw new Error("nothing to plot: pass at least one data set");
  checkRange("domain", options.domain);
  checkRange("transformedDomain", options.transformedDomain);
  const columns = pickColumns(Object.values(sources), options);
  if (options.color !== undefined && options.overlay) {
    throw new Error(
      "color splits the bars of side-by-side panels; overlay already colours each data set: leave out one of them",
    );
  }
  const classesOf = options.color === undefined ? undefined : classColouring(sources, options.color);
  const values: Row[] = [];
  const everything = options.sharedX === "all" ? overallRange(sources, stages, columns, options.clip) : undefined;
  columns.forEach((feature, order) => {
    const raw = stages.map((stage) => numericColumn(sources[stage]!, feature));
    const data = raw.map((column) => clipped(column, options.clip));
    // Overlaid data sets share their bins, so bars line up and a shift shows.
    const ranges = data.map((d) => finiteRange(d)).filter((r) => Number.isFinite(r.min));
    const shared: Range | undefined =
      options.domain ??
      ((options.overlay || options.sharedX === "feature") && ranges.length > 0
        ? [Math.min(...ranges.map((r) => r.min)), Math.max(...ranges.map((r) => r.max))]
        : options.sharedX === "all"
          ? everything
          : undefined);
    const notes: string[] = [];
    stages.forEach((stage, i) => {
      const range = i > 0 && options.transformedDomain ? options.transformedDomain : shared;
      const { bins, missing } = histogram(data[i]!, options.bins ?? 30, range);
      const outside = range ? countOutside(data[i]!, range) : 0;
      const note = [
        options.notes?.[stage]?.[feature] ?? "",
        missing > 0 ? `${missing} missing` : "",
        outside > 0 ? `${outside} outside` : "",
      ]
        .filter(Boolean)
        .join(" · ");
      if (options.overlay) {
        if (note) notes.push(`${stage}: ${note}`);
      } else if (note) values.push({ kind: "note", feature, order, stage, note });
      if (classesOf) {
        const panel = range ?? rangeOf(data[i]!);
        const bounds = clipBounds(raw[i]!, options.clip);
        for (const bin of classBins(raw[i]!, classesOf(i), bounds, options.bins ?? 30, panel))
          values.push({ kind: "bar", feature, order, stage, ...bin });
        return;
      }
      const total = bins.reduce((sum, b) => sum + b.count, 0) || 1;
      for (const bin of bins) values.push({ kind: "bar", feature, order, stage, ...bin, share: bin.count / total });
    });
    if (notes.length > 0) values.push({ kind: "note", feature, order, note: notes.join("; ") });
  });
  const colors = {
    domain: stages,
    range: [BASE_COLOR, ...stages.slice(1).map((_, i) => PALETTE[i % PALETTE.length] ?? BASE_COLOR)],
  };
  const hasNotes = values.some((v) => v.kind === "note");
  if (options.overlay) return overlaySpec({ values, stages, colors, options, hasNotes });
  // Up to three data sets side by side, one row per feature; more would be too wide to
  // read, so then each data set gets a row and the features go across.
  const manyStages = stages.length > 3;
  const narrow = stages.length === 3 || (manyStages && columns.length > 2);
  const rowHeader = { labelAngle: 0, labelAlign: "left", labelFontWeight: "bold" };
  const columnHeader = { labelFontSize: 12, labelFontWeight: "bold" };
  const width = options.width ?? (narrow ? 150 : 240);
  const height = options.height ?? (manyStages ? 60 : narrow ? 70 : 90);
  const fixedX = options.sharedX !== undefined || options.domain !== undefined || options.transformedDomain;
  const bars = {
    mark: { type: "bar", binSpacing: 0 },
    encoding: {
      x: {
        field: "start",
        bin: "binned",
        type: "quantitative",
        title: null,
        axis: { tickCount: narrow ? 3 : 5, labelFlush: true },
        ...(fixedX ? { scale: { nice: false, zero: false } } : {}),
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
  };
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
    spec: withNotes({ panel: bars, width, height, hasNotes }),
    resolve: { scale: { x: "independent", y: "independent" } },
    config: BASE_CONFIG,
  };
}

/**
 * A panel spec with its notes written under the x axis: the bars read only the rows of
 * bins and the text only the rows of notes, so an empty panel still says why it is empty.
 */
function withNotes(args: { panel: Row; width: number; height: number; hasNotes: boolean }): Row {
  const { panel, width, height, hasNotes } = args;
  if (!hasNotes) return { width, height, transform: [{ filter: "datum.kind === 'bar'" }], ...panel };
  return {
    width,
    height,
    layer: [
      { transform: [{ filter: "datum.kind === 'bar'" }], ...panel },
      {
        transform: [{ filter: "datum.kind === 'note'" }],
        mark: { type: "text", baseline: "top", align: "center", fontSize: 11, color: NOTE_COLOR },
        // Below the axis labels, centred on the panel.
        encoding: { x: { value: width / 2 }, y: { value: height + 20 }, text: { field: "note" } },
      },
    ],
  };
}

/** The values of the `clip` percentiles (none without a clip). */
function clipBounds(values: Float64Array, clip: Range | undefined): [number, number] | undefined {
  if (!clip) return undefined;
  if (!(clip[0] < clip[1]))
    throw new Error(`clip must be two percentiles, low below high, such as [0, 99]; got [${clip.join(", ")}]`);
  return percentiles(values, clip) as [number, number];
}

/** The values inside the `clip` percentiles (all of them without a clip). */
function clipped(values: Float64Array, clip: Range | undefined): Float64Array {
  const bounds = clipBounds(values, clip);
  return bounds ? values.filter((v) => !(v < bounds[0] || v > bounds[1])) : values;
}

function rangeOf(values: Float64Array): [number, number] | undefined {
  const { min, max } = finiteRange(values);
  return Number.isFinite(min) ? [min, max] : undefined;
}

function countOutside(values: Float64Array, [low, high]: Range): number {
  return values.reduce((n, v) => n + (v < low || v > high ? 1 : 0), 0);
}

/** One range over every feature of every data set, for `sharedX: "all"`. */
function overallRange(
  sources: Readonly<Record<string, ColumnSource>>,
  stages: readonly string[],
  columns: readonly string[],
  clip: Range | undefined,
): [number, number] | undefined {
  const ranges = stages.flatMap((stage) =>
    columns.map((c) => finiteRange(clipped(numericColumn(sources[stage]!, c), clip))),
  );
  const finite = ranges.filter((r) => Number.isFinite(r.min));
  return finite.length > 0 ? [Math.min(...finite.map((r) => r.min)), Math.max(...finite.map((r) => r.max))] : undefined;
}

/** One panel per feature, the data sets drawn over each other as shares of their rows. */
function overlaySpec(args: {
  values: Row[];
  stages: readonly string[];
  colors: { domain: readonly string[]; range: readonly string[] };
  options: CompareOptions;
  hasNotes: boolean;
}): VegaLiteSpec {
  const { values, stages, colors, options, hasNotes } = args;
  const bars = {
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
  };
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
    spec: withNotes({ panel: bars, width: options.width ?? 420, height: options.height ?? 90, hasNotes }),
    resolve: { scale: { x: "independent", y: "independent" } },
    config: BASE_CONFIG,
  };
}
