import { writeFile } from "node:fs/promises";
import { INSPECT_CUSTOM, displayRich, inspectRich } from "./rich-inspect.js";
import type { VegaLiteSpec } from "./vega-svg.js";

/** A rendered chart: the SVG text plus the Vega-Lite spec it came from. */
export class SvgChart {
  constructor(
    /** The picture as SVG markup. */
    readonly svg: string,
    /** The Vega-Lite spec, for tweaking and re-rendering elsewhere. */
    readonly spec: VegaLiteSpec,
  ) {}

  /** Width × height from the SVG's own attributes. */
  get size(): { width: number; height: number } {
    const width = Number(/width="([\d.]+)"/.exec(this.svg)?.[1] ?? Number.NaN);
    const height = Number(/height="([\d.]+)"/.exec(this.svg)?.[1] ?? Number.NaN);
    return { width, height };
  }

  /**
   * Shows the chart inline in a tslab notebook; does nothing elsewhere (use `save`).
   * Returns nothing, so it prints nothing as the last line of a cell.
   */
  show(): void {
    displayRich({ svg: this.svg });
  }

  /** Writes the SVG to a file, e.g. for a report or outside notebooks. */
  async save(path: string): Promise<void> {
    await writeFile(path, this.svg, "utf8");
  }

  toString(): string {
    return this.svg;
  }

  [INSPECT_CUSTOM](depth: number, options: { depth?: number | null }): string {
    const { width, height } = this.size;
    return inspectRich(() => ({ svg: this.svg }), `SvgChart(${width}×${height})`, depth, options);
  }
}
