/**
 * `plotJoint(frames, options)`: the joint plot of several data sets at once, each given
 * as data (a DataFrame, a Table, columns), as a Blob (downloaded) or as a Job (its output,
 * labelled by its transform and the parameters that differ from the defaults).
 */
import type { ColumnSource } from "../render/histogram.js";
import { jointSpec, type JointOptions } from "../render/joint-spec.js";
import { SvgChart } from "./svg-chart.js";
import { renderVegaLiteSvg } from "../render/vega-svg.js";
import { jobLabel } from "../../session/job/label.js";

/** A job's fitted state as the plots read it: its transform, parameters and attributes (`lambdas_`...). */
export interface FittedSummary {
  readonly type: string;
  readonly params: Record<string, unknown>;
  readonly [attribute: string]: unknown;
}

/** A job handle as plotJoint reads it; the Session's Job is one. */
export interface PlottableJob {
  readonly id: string;
  readonly type?: string | undefined;
  result(options?: { progress?: false }): Promise<{
    readonly fitted?: FittedSummary | undefined;
  }>;
  dataframe(options?: { progress?: false }): Promise<ColumnSource>;
}

/** A blob handle as plotJoint reads it; the Session's Blob is one. */
export interface PlottableBlob {
  readonly name: string;
  download(): Promise<ColumnSource>;
}

export type PlotInput = ColumnSource | PlottableJob | PlottableBlob;

function isJob(value: unknown): value is PlottableJob {
  const v = value as Partial<PlottableJob>;
  return typeof v.dataframe === "function" && typeof v.result === "function";
}

function isBlob(value: unknown): value is PlottableBlob {
  const v = value as Partial<PlottableBlob>;
  return typeof v.download === "function" && typeof v.name === "string";
}

interface Resolved {
  label: string | undefined;
  data: ColumnSource;
  fitted?: FittedSummary | undefined;
}

async function resolve(input: PlotInput): Promise<Resolved> {
  if (isJob(input)) {
    // Quiet: a plot of nine jobs should not draw eighteen status cards above it.
    const [result, data] = await Promise.all([input.result({ progress: false }), input.dataframe({ progress: false })]);
    const type = result.fitted?.type ?? input.type ?? `job ${input.id.slice(0, 8)}`;
    return { label: jobLabel(type, result.fitted?.params ?? {}), data, fitted: result.fitted };
  }
  if (isBlob(input)) return { label: input.name, data: await input.download() };
  return { label: undefined, data: input };
}

/**
 * Data sets under their labels, in order: a record keeps its keys; a list names jobs
 * after their transform, blobs after their name and plain data "data 1", "data 2"...
 * (a repeated label gets " #2").
 */
export async function labelledSources(
  frames: Readonly<Record<string, PlotInput>> | readonly PlotInput[],
): Promise<Record<string, ColumnSource>> {
  const labelled = await labelledInputs(frames);
  return Object.fromEntries(Object.entries(labelled).map(([name, { data }]) => [name, data]));
}

/** As `labelledSources`, each data set with the fitted state of the job it came from (if it did). */
export async function labelledInputs(
  frames: Readonly<Record<string, PlotInput>> | readonly PlotInput[],
): Promise<Record<string, { data: ColumnSource; fitted?: FittedSummary | undefined }>> {
  const entries: Array<[string | undefined, PlotInput]> = Array.isArray(frames)
    ? (frames as readonly PlotInput[]).map((f) => [undefined, f])
    : Object.entries(frames as Readonly<Record<string, PlotInput>>);
  const resolved = await Promise.all(entries.map(async ([key, input]) => ({ key, ...(await resolve(input)) })));
  const out: Record<string, { data: ColumnSource; fitted?: FittedSummary | undefined }> = {};
  resolved.forEach(({ key, label, data, fitted }, i) => {
    const base = key ?? label ?? `data ${i + 1}`;
    let name = base;
    for (let n = 2; Object.hasOwn(out, name); n++) name = `${base} #${n}`;
    out[name] = { data, fitted };
  });
  return out;
}

/**
 * A scatter of two columns per data set, coloured by a column, with marginal histograms,
 * and with `clip` a second panel zoomed on the rows inside those percentiles: the figure
 * of scikit-learn's "Compare the effect of different scalers on data with outliers".
 *
 * @example
 * await plotJoint([blob, ...jobs], { x: "mean_area", y: "area_error", color: "target", clip: [0, 99] })
 */
export async function plotJoint(
  frames: Readonly<Record<string, PlotInput>> | readonly PlotInput[],
  options: JointOptions,
): Promise<SvgChart> {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- a notebook cell calls this untyped
  if (!options || typeof options.x !== "string" || typeof options.y !== "string") {
    throw new TypeError('plotJoint needs the two columns to plot: plotJoint(frames, { x: "column", y: "other" })');
  }
  const sources = await labelledSources(frames);
  const { spec, summary } = jointSpec(sources, options);
  const sets = Object.keys(sources).join(", ");
  const alt =
    `Scatter of ${options.y} against ${options.x}${options.color ? ` coloured by ${options.color}` : ""} ` +
    `with marginal histograms: ${sets}; ${summary.panels} panels, ${summary.drawn} of ${summary.rows} rows drawn`;
  return new SvgChart(await renderVegaLiteSvg(spec), spec, alt);
}
