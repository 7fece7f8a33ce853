/**
 * The Vega-Lite spec of a joint plot, the picture of scikit-learn's gallery example
 * "Compare the effect of different scalers on data with outliers": per data set a row
 * with a scatter of two columns, coloured by a third, with each column's histogram on
 * the scatter's margins, and optionally a second panel zoomed on the rows inside given
 * percentiles. Pure: sampling, clipping and binning happen here, so the spec carries
 * a few thousand points at most whatever the row count.
 */
import { finiteRange, histogram, type ColumnSource } from "./histogram.js";
import { colouring, type Colouring } from "./colouring.js";
import { percentiles, plotColumn, rowCount, sampleRows } from "./plot-data.js";
import type { VegaLiteSpec } from "./vega-svg.js";

export interface JointOptions {
  /** Column on the horizontal axis. */
  x: string;
  /** Column on the vertical axis. */
  y: string;
  /**
   * Column to colour the points by (e.g. the target). Text or up to ten distinct whole
   * numbers: one colour per value and a legend; other numbers: a colour bar. Looked up in
   * each data set, else in the first that has it (the rows are the same rows).
   */
  color?: string;
  /**
   * Percentiles `[low, high]` of x and y: adds a second panel with the rows inside both
   * ranges ("zoom on the inliers"), as the gallery's `[0, 99]`.
   */
  clip?: readonly [number, number];
  title?: string;
  /** Bars per marginal histogram. Default 40. */
  bins?: number;
  /** Side of a scatter in pixels. Default 200. */
  size?: number;
  /**
   * Points drawn per panel at most (default 2000); past it a uniform sample of rows,
   * chosen with `seed`, and the chart says so. Histograms always count every row.
   */
  maxPoints?: number;
  /** Seed of the row sample. Default 0. */
  seed?: number;
  /** Symmetric-log scale (negatives and zero allowed) on "x", "y" or "xy". */
  log?: "x" | "y" | "xy";
  /** Fixed domains of the full panel's axes; points outside are cut off at the frame. */
  domain?: { x?: readonly [number, number]; y?: readonly [number, number] };
}

const MARGIN = 40;
const POINT_COLOR = "#2563eb";
const HIST_COLOR = "#9ca3af";

/** One panel: a scatter with its two marginal histograms, over the rows in `keep`. */
function panel(args: {
  x: Float64Array;
  y: Float64Array;
  keep: (row: number) => boolean;
  drawn: readonly number[];
  colour: Colouring;
  options: JointOptions;
  title: string;
  domain: { x?: readonly [number, number] | undefined; y?: readonly [number, number] | undefined };
}): VegaLiteSpec {
  const { x, y, keep, drawn, colour, options } = args;
  const size = options.size ?? 200;
  const bins = options.bins ?? 40;
  const xs = x.filter((_, i) => keep(i) && Number.isFinite(y[i]!));
  const ys = y.filter((_, i) => keep(i) && Number.isFinite(x[i]!));
  const range = (values: Float64Array, fixed: readonly [number, number] | undefined): [number, number] => {
    if (fixed) return [fixed[0], fixed[1]];
    const { min, max } = finiteRange(values);
    return Number.isFinite(min) ? (min === max ? [min - 0.5, max + 0.5] : [min, max]) : [0, 1];
  };
  const xDomain = range(xs, args.domain.x);
  const yDomain = range(ys, args.domain.y);
  const scale = (axis: "x" | "y", domain: [number, number]) => ({
    domain,
    nice: false,
    zero: false,
    ...(options.log?.includes(axis) ? { type: "symlog" } : {}),
  });
  const points = drawn
    .filter((i) => keep(i) && Number.isFinite(x[i]!) && Number.isFinite(y[i]!))
    .map((i) => ({ x: x[i], y: y[i], ...(colour.values ? { c: colour.values[i] } : {}) }));
  const colorEncoding = colour.values
    ? {
        color: colour.nominal
          ? { field: "c", type: "nominal", title: options.color, scale: { domain: colour.domain } }
          : {
              field: "c",
              type: "quantitative",
              title: options.color,
              scale: { domain: colour.domain, scheme: "plasma", reverse: true },
            },
      }
    : { color: { value: POINT_COLOR } };
  const marginal = (values: Float64Array, domain: [number, number]) =>
    histogram(values, bins, domain).bins.map((b) => ({ start: b.start, end: b.end, count: b.count }));
  return {
    title: { text: args.title, fontSize: 11, fontWeight: "normal", anchor: "start" },
    spacing: 2,
    vconcat: [
      {
        width: size,
        height: MARGIN,
        data: { values: marginal(xs, xDomain) },
        mark: { type: "bar", color: HIST_COLOR, clip: true, binSpacing: 0 },
        encoding: {
          x: { field: "start", type: "quantitative", bin: "binned", axis: null, scale: scale("x", xDomain) },
          x2: { field: "end" },
          y: { field: "count", type: "quantitative", axis: null },
        },
      },
      {
        spacing: 2,
        hconcat: [
          {
            width: size,
            height: size,
            data: { values: points },
            mark: { type: "point", filled: true, size: 10, opacity: 0.6, clip: true },
            encoding: {
              x: {
                field: "x",
                type: "quantitative",
                title: options.x,
                scale: scale("x", xDomain),
                axis: { tickCount: 5 },
              },
              y: {
                field: "y",
                type: "quantitative",
                title: options.y,
                scale: scale("y", yDomain),
                axis: { tickCount: 5 },
              },
              ...colorEncoding,
            },
          },
          {
            width: MARGIN,
            height: size,
            data: { values: marginal(ys, yDomain) },
            mark: { type: "bar", color: HIST_COLOR, clip: true, binSpacing: 0 },
            encoding: {
              y: { field: "start", type: "quantitative", bin: "binned", axis: null, scale: scale("y", yDomain) },
              y2: { field: "end" },
              x: { field: "count", type: "quantitative", axis: null },
            },
          },
        ],
      },
    ],
  };
}

/** What the chart drew, for its alt text and caption. */
export interface JointSummary {
  rows: number;
  drawn: number;
  panels: number;
}

/**
 * The spec of `plotJoint` over labelled data sets (rows in the order given).
 *
 * @example
 * jointSpec({ original: df, StandardScaler: scaled }, { x: "mean_area", y: "area_error", color: "target", clip: [0, 99] });
 */
export function jointSpec(
  sources: Readonly<Record<string, ColumnSource>>,
  options: JointOptions,
): { spec: VegaLiteSpec; summary: JointSummary } {
  const frames = Object.entries(sources);
  if (frames.length === 0) throw new Error("nothing to plot: pass at least one data set");
  if (options.clip && !(options.clip[0] < options.clip[1])) {
    throw new Error(`clip must be two percentiles, low below high, such as [0, 99]; got [${options.clip.join(", ")}]`);
  }
  const colourOf = colouring(frames, options.color);
  const maxPoints = options.maxPoints ?? 2000;
  const seed = options.seed ?? 0;
  const rows = Math.max(...frames.map(([, s]) => rowCount(s)));
  let drawnMost = 0;
  const bands = frames.map(([label, source], i) => {
    const x = plotColumn(source, options.x, `x of "${label}"`);
    const y = plotColumn(source, options.y, `y of "${label}"`);
    const drawn = sampleRows(x.length, maxPoints, seed);
    drawnMost = Math.max(drawnMost, drawn.length);
    const colour = colourOf(i);
    const panels = [
      panel({
        x,
        y,
        keep: () => true,
        drawn,
        colour,
        options,
        title: `all ${x.length} rows`,
        domain: options.domain ?? {},
      }),
    ];
    if (options.clip) {
      const [xLow, xHigh] = percentiles(x, options.clip) as [number, number];
      const [yLow, yHigh] = percentiles(y, options.clip) as [number, number];
      const keep = (r: number) => x[r]! >= xLow && x[r]! <= xHigh && y[r]! >= yLow && y[r]! <= yHigh;
      const inside = x.reduce((n, _, r) => n + (keep(r) ? 1 : 0), 0);
      const title = `zoom on p${options.clip[0]}-p${options.clip[1]} of both (${inside} rows)`;
      panels.push(panel({ x, y, keep, drawn, colour, options, title, domain: {} }));
    }
    // The data set's name heads its row, so a long name (a transform and its parameters)
    // widens no panel.
    return { title: { text: label, anchor: "start", fontSize: 12 }, hconcat: panels, spacing: 24 };
  });
  const sampled =
    drawnMost < rows ? `${drawnMost} of ${rows} rows drawn (uniform sample, seed ${seed}); histograms count all` : "";
  const title = options.title ?? `${options.y} against ${options.x}`;
  const spec: VegaLiteSpec = {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: sampled ? { text: title, subtitle: sampled, anchor: "start" } : { text: title, anchor: "start" },
    vconcat: bands,
    spacing: 18,
    resolve: { scale: { color: "shared" } },
    config: {
      background: "white",
      view: { stroke: "#e5e7eb" },
      legend: { orient: "top", direction: "horizontal", titleOrient: "left" },
      axis: { labelFontSize: 9, titleFontSize: 10 },
    },
  };
  return { spec, summary: { rows, drawn: drawnMost, panels: frames.length * (options.clip ? 2 : 1) } };
}
