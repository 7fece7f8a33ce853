import { escapeHtml } from "../render/html.js";
import { RichValue } from "./rich-value.js";

/**
 * A one-time portal login link (`session.portalLink()`): a link in a notebook, the URL
 * as text elsewhere (`String(link)`, template strings, `console.log`).
 */
export class PortalLink extends RichValue {
  constructor(readonly url: string) {
    super();
  }

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

  protected override inspectedText(): string {
    return `PortalLink ${this.url}`;
  }

  protected override shownText(): string {
    return `PortalLink ${this.url}`;
  }
}
