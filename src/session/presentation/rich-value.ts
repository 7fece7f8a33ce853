import { presentation, type Presentation } from "./registry.js";
import { INSPECT_CUSTOM, JUPYTER_DISPLAY, type MimeBundle } from "./views.js";

/**
 * A value that shows itself richly as a notebook cell's value, on both kernels: tslab
 * through `util.inspect`, Deno through its display symbol. A class gives its HTML and its
 * text; the kernel plumbing is the registered presentation's (./registry.ts).
 */
export abstract class RichValue {
  /** What a notebook shows. */
  abstract toHTML(): string;
  abstract toString(): string;

  /** What `console.log` prints where nothing rich is shown; default `toString()`. */
  protected inspectedText(): string {
    return this.toString();
  }

  /** The line printed under the HTML in tslab, and a Deno bundle's text; default `toString()`. */
  protected shownText(): string {
    return this.toString();
  }

  /** Who draws it: the registered presentation (display/'s own values use display's directly). */
  protected richProtocol(): Pick<Presentation, "inspectRich" | "jupyterBundle"> {
    return presentation();
  }

  [INSPECT_CUSTOM](depth: number, options: { depth?: number | null }): string {
    return this.richProtocol().inspectRich(
      () => ({ html: this.toHTML() }),
      this.inspectedText(),
      depth,
      options,
      this.shownText(),
    );
  }

  /** A Deno notebook cell's value: the same HTML tslab shows. */
  [JUPYTER_DISPLAY](): MimeBundle {
    return this.richProtocol().jupyterBundle(() => ({ html: this.toHTML() }), this.shownText());
  }
}
