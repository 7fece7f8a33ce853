import { inspect } from "node:util";
import { escapeHtml } from "./html.js";
import { JUPYTER_DISPLAY, inspectRich, jupyterBundle, type MimeBundle } from "./rich-inspect.js";

/**
 * A one-time portal login link (`session.portalLink()`): a link in a notebook, the URL
 * as text elsewhere (`String(link)`, template strings, `console.log`).
 */
export class PortalLink {
  constructor(readonly url: string) {}

  toString(): string {
    return this.url;
  }

  toJSON(): string {
    return this.url;
  }

  toHTML(): string {
    const url = escapeHtml(this.url);
    return `<p><a href="${url}" target="_blank" rel="noopener noreferrer">Open the portal</a> (works once, while this session runs: ask <code>session.portalLink()</code> again for another)</p>`;
  }

  [inspect.custom](depth: number, options: { depth?: number | null }): string {
    return inspectRich(() => ({ html: this.toHTML() }), `PortalLink ${this.url}`, depth, options);
  }

  [JUPYTER_DISPLAY](): MimeBundle {
    return jupyterBundle(() => ({ html: this.toHTML() }), `PortalLink ${this.url}`);
  }
}
