/**
 * Rich output for values left as the last expression of a tslab cell.
 *
 * tslab has no rich-display protocol for values: it prints the last expression with
 * `console.log`, i.e. through `util.inspect`. So a class opts in by implementing
 * `[Symbol.for("nodejs.util.inspect.custom")]` with `inspectRich`: when Node inspects
 * the value at top level inside a notebook, the HTML (or SVG) goes out as a display
 * output and the short text is what `console.log` prints. Nested values (a job inside
 * an array, inside an error) and every place outside a notebook only get the text.
 */
import { findKernel } from "./kernel-display.js";

/** Node's well-known symbol for custom inspection (no import of node:util needed). */
export const INSPECT_CUSTOM: unique symbol = Symbol.for("nodejs.util.inspect.custom");

/** What a value shows richly: HTML, or an SVG picture. */
export interface RichOutput {
  readonly html?: string;
  readonly svg?: string;
}

/** Sends rich output to the current notebook cell; false outside a notebook or on failure. */
export function displayRich(output: RichOutput): boolean {
  const kernel = findKernel();
  if (!kernel) return false;
  try {
    if (output.svg !== undefined) {
      if (kernel.display.svg) kernel.display.svg(output.svg);
      else kernel.display.html(output.svg);
      return true;
    }
    if (output.html !== undefined) {
      kernel.display.html(output.html);
      return true;
    }
  } catch {
    // A kernel between cells ("Not ready") cannot display; the text still prints.
  }
  return false;
}

/**
 * The body of a class's `[Symbol.for("nodejs.util.inspect.custom")](depth, options)`.
 *
 * @example
 * [Symbol.for("nodejs.util.inspect.custom")](depth: number, options: { depth?: number | null }) {
 *   return inspectRich(() => ({ html: jobHtml(this.record) }), jobText(this.record), depth, options);
 * }
 */
export function inspectRich(
  render: () => RichOutput,
  text: string,
  depth?: number,
  options?: { readonly depth?: number | null },
): string {
  // Node passes the remaining depth; it equals the configured depth only at the top.
  const topLevel = depth === undefined || options === undefined || depth === options.depth;
  if (topLevel && findKernel()) {
    try {
      if (displayRich(render())) return text;
    } catch {
      // Rendering failed: fall back to the text, never break console.log.
    }
  }
  return text;
}
