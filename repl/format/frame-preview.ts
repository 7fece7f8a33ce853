/** A frame's first rows as a table output, and the describe tables (dtypes, statistics). */
import type { Column, Table } from "../../src/index.js";
import type { TableOutput } from "../commands/outputs.js";
import { formatCell, formatNumberCell } from "./cells.js";
import { summarize } from "../../src/internal/index.js";

/** A cell as pandas prints it: a missing value is NaN in every column, text ones too (as in notebooks). */
export function cellText(column: Column, row: number): string {
  if (column.kind === "number") return formatNumberCell(column.values[row]!);
  const value = column.values[row];
  return value === null || value === undefined ? "NaN" : formatCell(value);
}

export function shapeText(table: Table): string {
  const n = table.columns.length;
  return `${table.rowCount} ${table.rowCount === 1 ? "row" : "rows"} × ${n} ${n === 1 ? "column" : "columns"}`;
}

/** The first `rows` rows (pandas' head), with the shape underneath. */
export function previewTable(table: Table, rows: number, title?: string): TableOutput {
  const n = Math.min(rows, table.rowCount);
  const body: string[][] = [];
  for (let r = 0; r < n; r++) body.push(table.columns.map((c) => cellText(c, r)));
  const more = table.rowCount > n ? ` (first ${n} shown)` : "";
  return {
    type: "table",
    title,
    columns: table.columns.map((c) => c.name),
    rows: body,
    numeric: table.columns.map((c) => c.kind === "number"),
    footer: `${shapeText(table)}${more}`,
  };
}

/** One row per column: dtype, counts and pandas-style statistics. */
export function statsTable(table: Table, dtypes?: readonly string[]): TableOutput {
  const columns = [
    "column",
    "dtype",
    "count",
    "missing",
    "mean",
    "std",
    "min",
    "25%",
    "50%",
    "75%",
    "max",
    "unique",
    "top",
  ];
  const rows = table.columns.map((column, i) => {
    const s = summarize(column);
    const dtype = dtypes?.[i] ?? column.kind;
    if (s.kind === "number") {
      return [
        column.name,
        dtype,
        String(s.count),
        String(s.missing),
        ...[s.mean, s.std, s.min, s.q25, s.median, s.q75, s.max].map(formatNumberCell),
        "",
        "",
      ];
    }
    return [
      column.name,
      dtype,
      String(s.count),
      String(s.missing),
      "",
      "",
      "",
      "",
      "",
      "",
      "",
      String(s.unique),
      s.top ?? "",
    ];
  });
  return {
    type: "table",
    title: "Summary",
    columns,
    rows,
    numeric: columns.map((c) => !["column", "dtype", "top"].includes(c)),
  };
}
