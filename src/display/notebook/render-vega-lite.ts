/**
 * `renderVegaLite(spec)`: any Vega-Lite spec as the `SvgChart` mdps's own plots are, so a
 * user's chart shows in tslab and Deno (and saves as SVG) without importing vega by hand.
 */
import { SvgChart } from "./svg-chart.js";
import { renderVegaLiteSvg, type VegaLiteSpec } from "../render/vega-svg.js";

export interface RenderOptions {
  /** A sentence saying what the chart shows (the image's alt text). Default: the spec's title, else "chart". */
  alt?: string;
}

function titleOf(spec: VegaLiteSpec): string | undefined {
  const title: unknown = spec.title;
  if (typeof title === "string") return title;
  if (typeof title === "object" && title !== null && typeof (title as { text?: unknown }).text === "string") {
    return (title as { text: string }).text;
  }
  return undefined;
}

/**
 * Renders a Vega-Lite spec (v5 or v6) to SVG, headless.
 *
 * @example
 * await renderVegaLite({ data: { values: [{ a: 1, b: 2 }] }, mark: "point", encoding: { x: { field: "a" }, y: { field: "b" } } })
 */
export async function renderVegaLite(spec: VegaLiteSpec, options: RenderOptions = {}): Promise<SvgChart> {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- a notebook cell calls this untyped
  if (typeof spec !== "object" || spec === null || Array.isArray(spec)) {
    throw new TypeError("renderVegaLite takes a Vega-Lite spec as an object, e.g. { data, mark, encoding }");
  }
  return new SvgChart(await renderVegaLiteSvg(spec), spec, options.alt ?? titleOf(spec) ?? "chart");
}
