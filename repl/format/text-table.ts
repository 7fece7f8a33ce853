/**
 * Lays out a table as fixed-width text lines that fit the terminal: long cells are
 * cut, and columns that do not fit are dropped with a note saying how many.
 */
import { truncate } from "./cells.js";

export interface TextTableOptions {
  readonly width: number;
  /** Right-align these columns. */
  readonly numeric?: readonly boolean[] | undefined;
  readonly maxCellWidth?: number;
}

export interface TextTable {
  readonly header: string;
  readonly rule: string;
  readonly lines: readonly string[];
  /** Columns left out for lack of width. */
  readonly hiddenColumns: number;
}

const GAP = "  ";

export function layoutTable(
  columns: readonly string[],
  rows: readonly (readonly string[])[],
  options: TextTableOptions,
): TextTable {
  const maxCell = options.maxCellWidth ?? 24;
  const widths = columns.map((name, c) =>
    Math.min(maxCell, Math.max(name.length, ...rows.map((r) => (r[c] ?? "").length))),
  );
  // Keep columns while they fit, reserving room for the "+N columns" note.
  let shown = 0;
  let used = 0;
  for (let c = 0; c < widths.length; c++) {
    const extra = (c === 0 ? 0 : GAP.length) + widths[c]!;
    const reserve = c < widths.length - 1 ? 14 : 0;
    if (c > 0 && used + extra + reserve > options.width) break;
    used += extra;
    shown++;
  }
  const hidden = columns.length - shown;
  const cell = (text: string, c: number): string => {
    const w = c === 0 ? Math.min(widths[c]!, options.width) : widths[c]!;
    const cut = truncate(text, w);
    return options.numeric?.[c] ? cut.padStart(w) : cut.padEnd(w);
  };
  const line = (cells: readonly string[]): string => {
    const parts: string[] = [];
    for (let c = 0; c < shown; c++) parts.push(cell(cells[c] ?? "", c));
    return parts.join(GAP).trimEnd();
  };
  const header = line(columns) + (hidden > 0 ? `${GAP}+${hidden} columns` : "");
  const rule = widths
    .slice(0, shown)
    .map((w) => "─".repeat(w))
    .join(GAP);
  return { header, rule, lines: rows.map(line), hiddenColumns: hidden };
}
