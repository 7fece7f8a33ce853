/** How single values are shown in tables: short, aligned, missing values visible. */

export function formatNumberCell(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (Number.isInteger(x) && Math.abs(x) < 1e15) return String(x);
  const abs = Math.abs(x);
  if (abs !== 0 && (abs < 1e-4 || abs >= 1e9)) return x.toExponential(4);
  // Six significant digits, without trailing zeros: 0.333333, 12.5, 1234.57.
  return String(Number(x.toPrecision(6)));
}

export function formatCell(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "number") return formatNumberCell(value);
  if (typeof value === "string") return value.replace(/[\r\n\t]/g, " ");
  if (typeof value === "boolean" || typeof value === "bigint") return String(value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "function" || typeof value === "symbol") return String(value);
  // Typed `string`, but undefined for an object whose toJSON gives undefined.
  const json = JSON.stringify(value) as string | undefined;
  return json ?? Object.prototype.toString.call(value);
}

/** Cuts to `width` display columns with an ellipsis (one code unit per column is close enough here). */
export function truncate(text: string, width: number): string {
  if (width <= 0) return "";
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}
