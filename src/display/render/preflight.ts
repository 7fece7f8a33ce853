/** `session.check(...)` in a notebook: one row per column, then the warnings and problems. */
import type { PreflightReport } from "../../session/preflight/preflight.js";
import { BOX_STYLE, CELL_STYLE, escapeHtml, formatNumber, HEAD_STYLE, MUTED_STYLE, TABLE_STYLE } from "./html.js";

const WARNING_STYLE = "color:#a16207";
const PROBLEM_STYLE = "color:#b91c1c";

export function preflightHtml(report: PreflightReport): string {
  const head = ["column", "dtype", "missing", "constant", "id-like", "min", "max", "feature", "notes"]
    .map((h) => `<th style="${HEAD_STYLE}">${h}</th>`)
    .join("");
  const left = `${CELL_STYLE};text-align:left`;
  const body = report.columns
    .map((c) => {
      const cells = [
        `<td style="${left}">${escapeHtml(c.name)}</td>`,
        `<td style="${left}">${c.dtype}</td>`,
        `<td style="${CELL_STYLE}">${c.missing}</td>`,
        `<td style="${CELL_STYLE}">${c.constant ? "yes" : ""}</td>`,
        `<td style="${CELL_STYLE}">${c.idLike ? "yes" : ""}</td>`,
        `<td style="${CELL_STYLE}">${c.min === null ? "" : formatNumber(c.min)}</td>`,
        `<td style="${CELL_STYLE}">${c.max === null ? "" : formatNumber(c.max)}</td>`,
        `<td style="${CELL_STYLE}">${c.feature ? "yes" : ""}</td>`,
        `<td style="${left}">${escapeHtml(c.notes.join("; "))}</td>`,
      ];
      return `<tr>${cells.join("")}</tr>`;
    })
    .join("");
  const lines = [
    ...report.warnings.map((w) => `<div style="${WARNING_STYLE}">⚠ ${escapeHtml(w.message)}</div>`),
    ...report.problems.map((p) => `<div style="${PROBLEM_STYLE}">✖ ${escapeHtml(p.message)}</div>`),
  ].join("");
  const title =
    `<div style="${MUTED_STYLE}">Pre-flight check: ${report.rows} rows` +
    `${report.type ? `, ${escapeHtml(report.type)}` : ""}; nothing was uploaded</div>`;
  return `<div style="${BOX_STYLE}">${title}<table style="${TABLE_STYLE}"><tr>${head}</tr>${body}</table>${lines}</div>`;
}
