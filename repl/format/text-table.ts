/**
 * Lays out a table as fixed-width text lines that fit the terminal. Columns take their
 * natural width while the whole table fits; on a narrower terminal the widest columns
 * give way first (a cell is cut with an ellipsis, never below MIN_CELL, so a number
 * stays whole). What still does not fit is either dropped with a note (`+3 columns`) or,
 * with `overflow: "wrap"`, continued in further blocks under the first, each repeating
 * the first column, as pandas prints a wide frame.
 */
import { truncate } from "./cells.js";

export interface TextTableOptions {
  readonly width: number;
  /** Right-align these columns. */
  readonly numeric?: readonly boolean[] | undefined;
  /** A cap on every cell, whatever the width (default none). */
  readonly maxCellWidth?: number | undefined;
  /** Columns that do not fit: `hide` (default) drops them with a note, `wrap` prints them in further blocks. */
  readonly overflow?: "hide" | "wrap" | undefined;
}

export interface TextTable {
  readonly header: string;
  readonly rule: string;
  readonly lines: readonly string[];
  /** Columns left out for lack of width. */
  readonly hiddenColumns: number;
}

const GAP = "  ";
/** No cell is cut below this (a formatted number is at most 11 characters: -1.2345e-11). */
export const MIN_CELL = 12;
/** An id column is cut to no fewer characters than this (with the ellipsis, 8 of the id). */
const ID_PREFIX = 9;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Room kept for the "+N columns" note. */
const NOTE = 14;

/** The table as one block (hidden columns noted in the header). */
export function layoutTable(
  columns: readonly string[],
  rows: readonly (readonly string[])[],
  options: TextTableOptions,
): TextTable {
  return layoutBlocks(columns, rows, { ...options, overflow: "hide" })[0]!;
}

/** The table as blocks of columns: one, unless `overflow: "wrap"` and it is too wide. */
export function layoutBlocks(
  columns: readonly string[],
  rows: readonly (readonly string[])[],
  options: TextTableOptions,
): TextTable[] {
  const natural = columns.map((name, c) =>
    Math.min(options.maxCellWidth ?? Infinity, Math.max(name.length, ...rows.map((r) => (r[c] ?? "").length))),
  );
  const ids = columns.map((_, c) => rows.length > 0 && rows.every((r) => UUID.test(r[c] ?? "")));
  if (options.overflow !== "wrap") return [block(columns, rows, fit(natural, options.width, true, ids), options)];
  const blocks: TextTable[] = [];
  let start = 1;
  do {
    // The first column names the rows, so every block repeats it.
    const indexes = [0];
    const widths = fitRun(natural, start, options.width);
    for (let c = start; c < start + widths.length - 1; c++) indexes.push(c);
    blocks.push(
      block(
        indexes.map((c) => columns[c]!),
        rows.map((r) => indexes.map((c) => r[c] ?? "")),
        { widths, hidden: 0 },
        { ...options, numeric: indexes.map((c) => options.numeric?.[c] ?? false) },
      ),
    );
    start += widths.length - 1;
  } while (start < columns.length);
  return blocks;
}

interface Fitted {
  /** Widths of the columns shown, in order from the first. */
  readonly widths: readonly number[];
  readonly hidden: number;
}

/**
 * Widths that fit `width`: natural when they do; else the widest are capped (the same
 * cap for all, as large as fits, at least MIN_CELL); then columns past the edge are dropped.
 */
function fit(natural: readonly number[], width: number, note: boolean, ids: readonly boolean[] = []): Fitted {
  const total = (ws: readonly number[]) => ws.reduce((sum, w) => sum + w, 0) + GAP.length * (ws.length - 1);
  if (total(natural) <= width) return { widths: natural, hidden: 0 };
  // Ids give way first: their first characters still name the job or blob (as a prefix).
  const shrunk = [...natural];
  for (let c = 0; c < shrunk.length && total(shrunk) > width; c++) {
    if (ids[c]) shrunk[c] = Math.max(ID_PREFIX, shrunk[c]! - (total(shrunk) - width));
  }
  let cap = Math.max(...shrunk);
  while (cap > MIN_CELL && total(shrunk.map((w) => Math.min(w, cap))) > width) cap--;
  const capped = shrunk.map((w) => Math.min(w, cap));
  if (total(capped) <= width) return { widths: capped, hidden: 0 };
  let shown = 0;
  let used = 0;
  for (let c = 0; c < capped.length; c++) {
    const extra = (c === 0 ? 0 : GAP.length) + capped[c]!;
    const reserve = note && c < capped.length - 1 ? NOTE : 0;
    if (c > 0 && used + extra + reserve > width) break;
    used += extra;
    shown++;
  }
  return { widths: capped.slice(0, shown), hidden: capped.length - shown };
}

/** The first column and as many columns from `start` as fit beside it (at least one). */
function fitRun(natural: readonly number[], start: number, width: number): number[] {
  const rest = natural.slice(start);
  const first = Math.min(natural[0]!, Math.max(MIN_CELL, Math.floor(width / 3)));
  const fitted = fit([first, ...rest], width, false);
  return fitted.widths.length > 1
    ? [...fitted.widths]
    : [first, Math.min(rest[0] ?? 0, Math.max(1, width - first - 2))];
}

function block(
  columns: readonly string[],
  rows: readonly (readonly string[])[],
  fitted: Fitted,
  options: TextTableOptions,
): TextTable {
  const { widths, hidden } = fitted;
  const shown = widths.length;
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
  const rule = widths.map((w) => "─".repeat(w)).join(GAP);
  return { header, rule, lines: rows.map(line), hiddenColumns: hidden };
}
