/** The two session values with no record behind them: a pipeline not fitted yet, a portal link. */
import type { HtmlViews } from "../../session/presentation/registry.js";
import { BOX_STYLE, MUTED_STYLE, escapeHtml } from "./html.js";

export function pipelineHtml(steps: HtmlViews["pipeline"]): string {
  const items = steps
    .map(
      (s) =>
        `<li><b>${escapeHtml(s.type)}</b> on ${escapeHtml(s.columns)}` +
        `${s.params && Object.keys(s.params).length > 0 ? ` <code>${escapeHtml(JSON.stringify(s.params))}</code>` : ""}</li>`,
    )
    .join("");
  return `<div style="${BOX_STYLE}"><b>mdps Pipeline</b> <span style="${MUTED_STYLE}">not fitted yet: await pipeline.fit(df)</span><ol style="margin:2px 0">${items}</ol></div>`;
}

export function portalLinkHtml(url: string): string {
  const shown = escapeHtml(url);
  return `<p><a href="${shown}" target="_blank" rel="noopener noreferrer">Open the portal</a> (works once, while this session runs: ask <code>session.portalLink()</code> again for another)</p>`;
}
