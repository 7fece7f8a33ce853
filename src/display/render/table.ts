/**
 * DataFrames and Tables as HTML: shape and dtypes above, the first and last rows below,
 * instead of danfo's box-drawing text. Works on danfo DataFrames by duck typing (their
 * public `shape`, `columns`, `dtypes`, `index` and row-major `values`), so this module
 * never loads danfo, and on mdps's own columnar `Table`.
 */
import { columnDtype } from "../../core/formats/column-dtype.js";
import { displayedDtype } from "../../core/formats/danfo-dtype.js";
import type { Table } from "../../core/formats/table.js";
import { BOX_STYLE, CELL_STYLE, HEAD_STYLE, MUTED_STYLE, TABLE_STYLE, escapeHtml, formatValue } from "./html.js";

/** What mdps reads from a danfo DataFrame (danfo's own fields, so any 1.x works). */
export interface DataFrameLike {
  readonly shape: readonly number[];
  readonly columns: readonly string[];
  readonly dtypes: readonly string[];
  readonly index: ReadonlyArray<string | number>;
  readonly values: ReadonlyArray<unknown>;
}

export interface TableHtmlOptions {
  /** Rows shown in full up to this count; past it, the first and last `maxRows / 2`. Default 10. */
  maxRows?: number;
  /** Columns shown in full up to this count; past it, the first and last halves. Default 20. */
  maxColumns?: number;
  /** Heading before the shape, e.g. "Result". Default "DataFrame" or "Table". */
  title?: string;
}

export function isDataFrameLike(value: unknown): value is DataFrameLike {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Partial<DataFrameLike>;
  return (
    Array.isArray(v.shape) &&
    v.shape.length === 2 &&
    Array.isArray(v.columns) &&
    Array.isArray(v.dtypes) &&
    Array.isArray(v.index) &&
    Array.isArray(v.values)
  );
}

export function isTable(value: unknown): value is Table {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Partial<Table>;
  return (
    typeof v.rowCount === "number" &&
    Array.isArray(v.columns) &&
    v.columns.every((c) => typeof c === "object" && c !== null && "kind" in c && "values" in c)
  );
}

/** Positions to show out of `count`, with -1 where the elided middle goes. */
export function visiblePositions(count: number, max: number): number[] {
  if (count <= max) return Array.from({ length: count }, (_, i) => i);
  const head = Math.ceil(max / 2);
  const tail = Math.floor(max / 2);
  const first = Array.from({ length: head }, (_, i) => i);
  const last = Array.from({ length: tail }, (_, i) => count - tail + i);
  return [...first, -1, ...last];
}

interface Grid {
  rows: number;
  names: readonly string[];
  dtypes: readonly string[];
  label(row: number): string;
  cell(row: number, column: number): unknown;
}

function gridOfDataFrame(df: DataFrameLike): Grid {
  const rows = df.shape[0] ?? 0;
  return {
    rows,
    names: df.columns,
    dtypes: df.dtypes.map((dtype, column) => displayedDtype(dtype, rows, (row) => cellOf(df, row, column))),
    label: (row) => String(df.index[row] ?? row),
    cell: (row, column) => cellOf(df, row, column),
  };
}

function cellOf(df: DataFrameLike, row: number, column: number): unknown {
  const values = df.values[row];
  // A one-column frame may hold plain values instead of one-element rows.
  return Array.isArray(values) ? values[column] : values;
}

function gridOfTable(table: Table): Grid {
  return {
    rows: table.rowCount,
    names: table.columns.map((c) => c.name),
    dtypes: table.columns.map(columnDtype),
    label: (row) => String(row),
    cell: (row, column) => table.columns[column]?.values[row],
  };
}

function renderGrid(grid: Grid, kind: string, options: TableHtmlOptions): string {
  const rowPositions = visiblePositions(grid.rows, options.maxRows ?? 10);
  const colPositions = visiblePositions(grid.names.length, options.maxColumns ?? 20);
  const head = (text: string, title = "") =>
    `<th style="${HEAD_STYLE}"${title ? ` title="${escapeHtml(title)}"` : ""}>${text}</th>`;
  const names = colPositions.map((c) => (c < 0 ? head("…") : head(escapeHtml(grid.names[c]))));
  const dtypes = colPositions.map((c) =>
    c < 0
      ? head("")
      : `<td style="${CELL_STYLE};${MUTED_STYLE};font-style:italic">${escapeHtml(grid.dtypes[c] ?? "")}</td>`,
  );
  const body = rowPositions.map((r) => {
    if (r < 0) {
      return `<tr><td style="${CELL_STYLE};${MUTED_STYLE}">…</td>${colPositions.map(() => `<td style="${CELL_STYLE};${MUTED_STYLE}">…</td>`).join("")}</tr>`;
    }
    const cells = colPositions.map((c) => {
      if (c < 0) return `<td style="${CELL_STYLE};${MUTED_STYLE}">…</td>`;
      const value = grid.cell(r, c);
      const missing = value === null || value === undefined || (typeof value === "number" && Number.isNaN(value));
      return missing
        ? `<td style="${CELL_STYLE};${MUTED_STYLE}">NaN</td>`
        : `<td style="${CELL_STYLE}">${escapeHtml(formatValue(value))}</td>`;
    });
    return `<tr><th style="${CELL_STYLE};${MUTED_STYLE};font-weight:normal">${escapeHtml(grid.label(r))}</th>${cells.join("")}</tr>`;
  });
  const title = escapeHtml(options.title ?? kind);
  const shape =
    `<div style="margin-bottom:4px"><b>${title}</b> <span style="${MUTED_STYLE}">` +
    `${grid.rows.toLocaleString("en-US")} rows × ${grid.names.length.toLocaleString("en-US")} columns</span></div>`;
  return (
    `<div style="${BOX_STYLE}">${shape}<table style="${TABLE_STYLE}">` +
    `<thead><tr>${head("")}${names.join("")}</tr>` +
    `<tr><td style="${CELL_STYLE}"></td>${dtypes.join("")}</tr></thead>` +
    `<tbody>${body.join("")}</tbody></table></div>`
  );
}

/** A danfo DataFrame as an HTML table with its shape and dtypes. */
export function dataFrameHtml(df: DataFrameLike, options: TableHtmlOptions = {}): string {
  return renderGrid(gridOfDataFrame(df), "DataFrame", options);
}

/** An mdps `Table` as an HTML table with its shape and column kinds. */
export function tableHtml(table: Table, options: TableHtmlOptions = {}): string {
  return renderGrid(gridOfTable(table), "Table", options);
}

/** Plain-text summary for logs and terminals: `DataFrame 1,000 rows × 5 columns (a, b, …)`. */
export function dataFrameSummary(df: DataFrameLike | Table): string {
  const grid = isTable(df) ? gridOfTable(df) : gridOfDataFrame(df);
  const names = grid.names.length > 6 ? [...grid.names.slice(0, 5), "…"] : grid.names;
  return `${isTable(df) ? "Table" : "DataFrame"} ${grid.rows.toLocaleString("en-US")} rows × ${grid.names.length} columns (${names.join(", ")})`;
}

/** The same view as plain text, aligned, for terminals and logs. */
export function tableText(data: DataFrameLike | Table, options: TableHtmlOptions = {}): string {
  const grid = isTable(data) ? gridOfTable(data) : gridOfDataFrame(data);
  const rowPositions = visiblePositions(grid.rows, options.maxRows ?? 10);
  const colPositions = visiblePositions(grid.names.length, options.maxColumns ?? 20);
  const lines: string[][] = [
    ["", ...colPositions.map((c) => (c < 0 ? "…" : (grid.names[c] ?? "")))],
    ["", ...colPositions.map((c) => (c < 0 ? "" : (grid.dtypes[c] ?? "")))],
    ...rowPositions.map((r) =>
      r < 0
        ? ["…", ...colPositions.map(() => "…")]
        : [
            grid.label(r),
            ...colPositions.map((c) => {
              if (c < 0) return "…";
              const v = grid.cell(r, c);
              return v === null || v === undefined || (typeof v === "number" && Number.isNaN(v))
                ? "NaN"
                : formatValue(v);
            }),
          ],
    ),
  ];
  const widths = lines[0]!.map((_, i) => Math.max(...lines.map((l) => (l[i] ?? "").length)));
  const body = lines.map((l) =>
    l
      .map((cell, i) => cell.padStart(widths[i] ?? 0))
      .join("  ")
      .trimEnd(),
  );
  return `${dataFrameSummary(data)}\n${body.join("\n")}`;
}
