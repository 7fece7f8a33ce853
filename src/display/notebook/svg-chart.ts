import { writeFile } from "node:fs/promises";
import { escapeHtml } from "../render/html.js";
import { displayRich } from "./rich-inspect.js";
import { DisplayedValue } from "./displayed-value.js";
import type { VegaLiteSpec } from "../render/vega-svg.js";

/**
 * A rendered chart: the SVG text plus the Vega-Lite spec it came from.
 *
 * In a notebook it is shown as an `<img>` holding the SVG as a data URI rather than as
 * an `image/svg+xml` output: notebook viewers that sanitise inline SVG (nbconvert's HTML
 * export, GitHub's renderer) strip or blacken its elements, while an image cannot run
 * anything and so passes intact, still sharp at any zoom.
 */
export class SvgChart extends DisplayedValue {
  constructor(
    /** The picture as SVG markup. */
    readonly svg: string,
    /** The Vega-Lite spec, for tweaking and re-rendering elsewhere. */
    readonly spec: VegaLiteSpec,
    /** A sentence saying what the chart shows, for screen readers and broken images. */
    readonly alt = "chart",
  ) {
    super();
  }

  /** Width × height from the SVG's own attributes. */
  get size(): { width: number; height: number } {
    const width = Number(/width="([\d.]+)"/.exec(this.svg)?.[1] ?? Number.NaN);
    const height = Number(/height="([\d.]+)"/.exec(this.svg)?.[1] ?? Number.NaN);
    return { width, height };
  }

  /** The chart as one `<img>` element with the SVG inlined as a data URI. */
  toHTML(): string {
    const { width } = this.size;
    const data = Buffer.from(this.svg, "utf8").toString("base64");
    const size = Number.isFinite(width) ? ` width="${width}"` : "";
    return `<img src="data:image/svg+xml;base64,${data}"${size} alt="${escapeHtml(this.alt)}">`;
  }

  /**
   * Shows the chart inline in a notebook (tslab or Deno); does nothing elsewhere (use `save`).
   * Returns nothing, so it prints nothing as the last line of a cell.
   */
  show(): void {
    displayRich({ html: this.toHTML() });
  }

  /** Writes the SVG to a file, e.g. for a report or outside notebooks. */
  async save(path: string): Promise<void> {
    await writeFile(path, this.svg, "utf8");
  }

  toString(): string {
    return this.svg;
  }

  protected override shownText(): string {
    return `SvgChart(${this.size.width}×${this.size.height})`;
  }
}
