/**
 * scikit-learn's warnings (a job result's `warnings`, the log's warning lines) in
 * yellow: on the result card, and on the live job card as the log lines arrive.
 */
import type { JobWarning } from "../../core/contract/job.js";
import { escapeHtml, MUTED_STYLE } from "./html.js";

/** Amber on pale yellow: readable on light and dark notebook themes. */
export const WARNING_STYLE = "color:#92400e;background:#fef3c7;padding:1px 4px;border-radius:3px";

/** The warnings as a yellow list under a heading; "" when there are none. */
export function warningsHtml(warnings: readonly JobWarning[] | undefined): string {
  if (!warnings || warnings.length === 0) return "";
  const items = warnings
    .map((w) => `<li style="${WARNING_STYLE};margin:2px 0">⚠ ${escapeHtml(w.message)}</li>`)
    .join("");
  return `<div style="margin-top:4px"><b style="color:#92400e">scikit-learn would warn</b><ul style="list-style:none;padding:0;margin:2px 0">${items}</ul></div>`;
}

/** The warnings as plain lines (text/plain output); "" when there are none. */
export function warningsText(warnings: readonly JobWarning[] | undefined): string {
  return (warnings ?? []).map((w) => `\n  warning: ${w.message}`).join("");
}

/** Log lines for a job card: warnings in yellow, errors in red, the rest muted. */
export function logLinesHtml(logs: ReadonlyArray<{ readonly level?: string; readonly message: string }>): string {
  if (logs.length === 0) return "";
  const lines = logs.map((l) => {
    const text = escapeHtml(`${l.level && l.level !== "info" ? `[${l.level}] ` : ""}${l.message}`);
    if (l.level === "warning") return `<span style="${WARNING_STYLE}">${text}</span>`;
    if (l.level === "error") return `<span style="color:#dc2626">${text}</span>`;
    return text;
  });
  return `<pre style="margin:4px 0 0 0;font-size:11px;${MUTED_STYLE};white-space:pre-wrap">${lines.join("\n")}</pre>`;
}
