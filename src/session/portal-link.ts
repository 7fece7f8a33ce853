import { presentation } from "./presentation/registry.js";
import { RichValue } from "./presentation/rich-value.js";

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
    return presentation().html.portalLink(this.url);
  }

  protected override inspectedText(): string {
    return `PortalLink ${this.url}`;
  }

  protected override shownText(): string {
    return `PortalLink ${this.url}`;
  }
}
