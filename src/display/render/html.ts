/**
 * Small pieces every notebook renderer shares: escaping, short ids, human sizes and
 * durations, and the few inline styles. Styles are inline (not a <style> block) because
 * notebook viewers such as GitHub's drop <style> elements but keep the markup readable.
 */
import type { JobStatus } from "../../core/contract/job-status.js";

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: unknown): string {
  return String(text).replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** `3f2a9c1e-…-5d` → `3f2a9c1e`: enough to tell ids apart on screen. */
export function shortId(id: string): string {
  return id.length > 8 ? id.slice(0, 8) : id;
}

/** An id shortened on screen with the full id in the tooltip. */
export function idHtml(id: string): string {
  return `<code title="${escapeHtml(id)}">${escapeHtml(shortId(id))}</code>`;
}

export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return String(bytes);
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** 850 → "850 ms", 12_300 → "12.3 s", 125_000 → "2 min 5 s". */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "–";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return `${minutes} min ${seconds} s`;
}

/** Numbers as a person reads them in a table: at most 6 significant digits. */
export function formatNumber(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (!Number.isFinite(value)) return value > 0 ? "∞" : "-∞";
  if (Number.isInteger(value) && Math.abs(value) < 1e15) return String(value);
  const abs = Math.abs(value);
  if (abs !== 0 && (abs < 1e-4 || abs >= 1e9)) return value.toExponential(4);
  return String(Number(value.toPrecision(6)));
}

/** A cell value of any type, as table text. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return formatNumber(value);
  if (typeof value === "string") return value;
  if (typeof value === "boolean" || typeof value === "bigint") return String(value);
  try {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition, @typescript-eslint/no-base-to-string -- JSON.stringify returns undefined for a function or a symbol (its type says string); those show as String() writes them
    return JSON.stringify(value) ?? String(value);
  } catch {
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- what JSON cannot write (a cycle, a BigInt inside) shows as String() writes it
    return String(value);
  }
}

/** A text progress bar that survives every HTML sanitiser: `███████░░░`. */
export function progressBar(fraction: number, width = 20): string {
  const clamped = Number.isFinite(fraction) ? Math.min(1, Math.max(0, fraction)) : 0;
  const filled = Math.round(clamped * width);
  return "█".repeat(filled) + "░".repeat(width - filled);
}

/**
 * Progress as text, or an indeterminate bar with "progress not reported" when the
 * service does not report any (the interface shows no progress field).
 */
export function progressText(fraction: number | undefined, width = 20): string {
  if (fraction === undefined) return `${"▒".repeat(width)} progress not reported`;
  return `${progressBar(fraction, width)} ${Math.round(fraction * 100)}%`;
}

/** One colour per canonical status: a status added to the contract must get one here. */
export const STATUS_COLORS: Readonly<Record<JobStatus, string>> = {
  queued: "#6b7280",
  running: "#2563eb",
  succeeded: "#16a34a",
  failed: "#dc2626",
  timed_out: "#d97706",
  cancelled: "#78716c",
};

/** The status as a coloured word; unknown statuses (a real service may add some) stay grey. */
export function statusHtml(status: string): string {
  const color = (STATUS_COLORS as Readonly<Record<string, string | undefined>>)[status] ?? "#6b7280";
  return `<b style="color:${color}">${escapeHtml(status)}</b>`;
}

export const BOX_STYLE = "font-family:system-ui,sans-serif;font-size:13px;line-height:1.4";
export const TABLE_STYLE = "border-collapse:collapse;font-size:12px";
export const CELL_STYLE = "padding:2px 8px;text-align:right;border-bottom:1px solid #e5e7eb";
export const HEAD_STYLE = "padding:2px 8px;text-align:right;border-bottom:1px solid #9ca3af";
export const MUTED_STYLE = "color:#6b7280";

/** Rows of `label: value` pairs as a compact two-column table. */
export function definitionTable(rows: ReadonlyArray<readonly [string, string]>): string {
  const body = rows
    .map(
      ([label, value]) =>
        `<tr><th style="padding:1px 10px 1px 0;text-align:left;font-weight:normal;${MUTED_STYLE}">` +
        `${escapeHtml(label)}</th><td style="padding:1px 0;text-align:left">${value}</td></tr>`,
    )
    .join("");
  return `<table style="${TABLE_STYLE}">${body}</table>`;
}
