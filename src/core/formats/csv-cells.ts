/**
 * One CSV cell per value, as pandas' `to_csv` writes it, so that pandas reads mdps's CSV
 * back with the dtypes it had: floats as Python's repr (`1.0`, `1e-05`), an integer column
 * as integers, booleans `True`/`False` (or the file's own spelling), NaN as an empty field,
 * text quoted only when it must be.
 */
import { PANDAS_BOOLEANS } from "./csv-booleans.js";
import { pythonFloatRepr } from "./pandas-number.js";
import type { Column } from "./table.js";

const NEEDS_QUOTES = /[",\r\n]|^[ \t]|[ \t]$/;

/** A field as CSV: quoted only when it holds a comma, quote, line break or edge space. */
export function csvField(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * Whether a number column is integers to pandas: read from CSV integer literals, or an
 * integer type of Arrow or Parquet, and no value missing (pandas makes an integer column
 * with a missing value float64, and writes it `1.0`).
 */
function writtenAsIntegers(column: Extract<Column, { kind: "number" }>): boolean {
  const typed =
    column.integers === true ||
    /^U?[Ii]nt/.test(column.arrow?.typeName ?? "") ||
    /^INT(32|64)/.test(column.parquet?.typeName ?? "");
  if (!typed) return false;
  for (const x of column.values) if (x !== x || !Number.isInteger(x)) return false;
  return true;
}

/** Writes row r of the column; `single`: the table has one column (a missing value is then `""`). */
export function csvCellWriter(column: Column, single: boolean): (row: number) => string {
  // A line with one empty field would read back as a blank line: quote it (as Python does).
  const empty = single ? '""' : "";
  switch (column.kind) {
    case "number": {
      const v = column.values;
      if (writtenAsIntegers(column)) return (r) => String(v[r]);
      return (r) => {
        const x = v[r] as number;
        return x !== x ? empty : pythonFloatRepr(x);
      };
    }
    case "string": {
      const v = column.values;
      return (r) => {
        const s = v[r];
        return s === null || s === undefined || s === "" ? empty : csvField(s);
      };
    }
    case "boolean": {
      const v = column.values;
      const words = column.csvSpelling ?? PANDAS_BOOLEANS;
      return (r) => {
        const b = v[r];
        return b === null || b === undefined ? empty : b ? words.true : words.false;
      };
    }
  }
}
