/**
 * Rich output for values left as the last expression of a notebook cell.
 *
 * Deno's kernel has a protocol for it: a value with a `[Symbol.for("Jupyter.display")]()`
 * method shows the MIME bundle the method returns (`jupyterBundle` builds it from the same
 * renderer, so both kernels show the same HTML).
 *
 * tslab has no rich-display protocol for values: it prints the last expression with
 * `console.log`, i.e. through `util.inspect`. So a class opts in by implementing
 * `[Symbol.for("nodejs.util.inspect.custom")]` with `inspectRich`: when Node inspects
 * the value at top level inside a notebook, the HTML (or SVG) goes out as a display
 * output and the short text is what `console.log` prints. Nested values (a job inside
 * an array, inside an error) and every place outside a notebook only get the text.
 */
import { findKernel } from "./kernel-display.js";
import { JUPYTER_DISPLAY, type MimeBundle, type RichOutput } from "../../session/presentation/views.js";

export { INSPECT_CUSTOM, JUPYTER_DISPLAY } from "../../session/presentation/views.js";
export type { MimeBundle, RichOutput } from "../../session/presentation/views.js";

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
 * `shownText` (default `text`) is what `console.log` prints once the rich output went to the cell.
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
  shownText: string = text,
): string {
  // Node passes the remaining depth; it equals the configured depth only at the top.
  const topLevel = depth === undefined || options === undefined || depth === options.depth;
  if (topLevel && findKernel()) {
    try {
      // Under the card, tslab prints what this returns: a one-line summary, not the card again as text.
      if (displayRich(render())) return shownText;
    } catch {
      // Rendering failed: fall back to the text, never break console.log.
    }
  }
  return text;
}

/**
 * The body of a class's `[Symbol.for("Jupyter.display")]()`: the rich form and its text.
 * A renderer that throws leaves the text, as in `inspectRich`.
 *
 * @example
 * [Symbol.for("Jupyter.display")](): MimeBundle {
 *   return jupyterBundle(() => ({ html: this.toHTML() }), this.toString());
 * }
 */
export function jupyterBundle(render: () => RichOutput, text: string): MimeBundle {
  try {
    const output = render();
    if (output.svg !== undefined) return { "image/svg+xml": output.svg, "text/plain": text };
    if (output.html !== undefined) return { "text/html": output.html, "text/plain": text };
  } catch {
    // Rendering failed: the text still shows.
  }
  return { "text/plain": text };
}

/**
 * Gives a plain record (a job's result, its fitted state) a rich display as a Deno cell's
 * value. The method is a non-enumerable symbol, so JSON, spreads and key lists do not see it.
 */
export function withJupyterDisplay<T extends object>(value: T, html: (v: T) => string, text: (v: T) => string): T {
  if (JUPYTER_DISPLAY in value || !Object.isExtensible(value)) return value;
  Object.defineProperty(value, JUPYTER_DISPLAY, {
    value: () => jupyterBundle(() => ({ html: html(value) }), text(value)),
    enumerable: false,
    configurable: true,
    writable: true,
  });
  return value;
}
