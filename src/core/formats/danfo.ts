/**
 * danfo.js DataFrame <-> Table, fast and exact.
 *
 * What danfojs-node 1.2.0 stores (checked, see docs/formats.md): rows in `$data` (an array
 * of row arrays) and, unless `lowMemoryMode`, the same values per column in
 * `$dataIncolumnFormat`. Values are plain JS numbers (float64) even though numeric
 * columns are labelled "float32": nothing is rounded unless danfo's tensor paths are
 * used. Missing values appear as NaN (arithmetic, constructors), null (its readCSV) or
 * undefined (user arrays); all three read as missing here. Written back, a missing
 * number is NaN and a missing string or boolean is null.
 *
 * Both directions skip danfo's slow paths: the column arrays are read directly, and a
 * new frame is built once from prepared row and column arrays instead of letting danfo
 * transpose and infer types over every value.
 */
import { DataFrame } from "danfojs-node";
import { FormatError } from "./format-error.js";
import { formatNumber, parseNumberText } from "./number-text.js";
import type { Column, Table } from "./table.js";

/** danfo's dtype labels. */
export type DanfoDtype = "float32" | "int32" | "string" | "boolean" | "datetime";

export interface DataFrameOptions {
  /**
   * dtype per column to restore, e.g. `{ id: "int32", label: "string", ok: "boolean" }`:
   * text columns (as CSV passthrough gives them) are turned back into numbers or
   * booleans. Columns not named get danfo's own labels: "int32" when every value is an
   * integer in int32 range, "float32" for other numbers (the values stay float64).
   */
  readonly dtypes?: Readonly<Record<string, string>>;
}

/**
 * What tableFromDataFrame reads of a frame. danfo's readers (readCSV, ...) return its base
 * DataFrame class, which danfojs-node's DataFrame extends: both fit.
 */
export type DataFrameSource = Pick<DataFrame, "columns" | "shape" | "dtypes">;

/** The internals read and written (danfojs-node is pinned at 1.2.0). */
interface DanfoInternals {
  $data: unknown[][];
  $dataIncolumnFormat: unknown[][];
  $index: (string | number)[];
  $columns: string[];
  $dtypes: string[];
  $config: { isLowMemoryMode: boolean };
  $setInternalColumnDataProperty(): void;
}

function columnValues(df: DataFrameSource, k: number, rows: number): ArrayLike<unknown> {
  const internals = df as unknown as DanfoInternals;
  const byColumn = internals.$dataIncolumnFormat;
  const fromColumns = Array.isArray(byColumn) ? byColumn[k] : undefined;
  const data = internals.$data;
  if (!internals.$config.isLowMemoryMode && fromColumns !== undefined && fromColumns.length === rows) {
    // danfo keeps both layouts in step (checked for its in-place operations); a spot check
    // of the first and last row guards against a path that does not.
    const last = rows - 1;
    if (
      rows === 0 ||
      (Object.is(fromColumns[0], (data[0] as unknown[])[k]) &&
        Object.is(fromColumns[last], (data[last] as unknown[])[k]))
    ) {
      return fromColumns;
    }
  }
  const out = new Array<unknown>(rows);
  for (let i = 0; i < rows; i++) out[i] = (data[i] as unknown[])[k];
  return out;
}

function isMissing(v: unknown): boolean {
  return v === null || v === undefined || (typeof v === "number" && v !== v);
}

/** Number column in one pass, or undefined as soon as a value is neither a number nor missing. */
function numbersOf(values: ArrayLike<unknown>, rows: number): Float64Array | undefined {
  const out = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    const v = values[i];
    if (typeof v === "number") out[i] = v;
    else if (v === null || v === undefined) out[i] = NaN;
    else return undefined;
  }
  return out;
}

/** One column's values as a Table column, by what the values are (not the dtype label). */
function toColumn(name: string, values: ArrayLike<unknown>, rows: number, dtype: string): Column {
  let present = 0;
  let booleans = 0;
  if (dtype !== "string" && dtype !== "boolean") {
    const numbers = numbersOf(values, rows);
    // danfo's int32 is pandas' int64 for CSV: written as integers (when none is missing).
    if (numbers !== undefined) {
      return dtype === "int32"
        ? { name, kind: "number", values: numbers, integers: true }
        : { name, kind: "number", values: numbers };
    }
  }
  for (let i = 0; i < rows; i++) {
    const v = values[i];
    if (isMissing(v)) continue;
    present++;
    if (typeof v === "boolean") booleans++;
  }
  if (present === 0 && dtype !== "string" && dtype !== "boolean") {
    return { name, kind: "number", values: new Float64Array(rows).fill(NaN) };
  }
  if (booleans === present && (present > 0 || dtype === "boolean") && dtype !== "string") {
    const out = new Array<boolean | null>(rows);
    for (let i = 0; i < rows; i++) {
      const v = values[i];
      out[i] = typeof v === "boolean" ? v : null;
    }
    return { name, kind: "boolean", values: out };
  }
  // Text, or a mix: each value as text (numbers in their shortest exact form, dates in ISO 8601).
  const out = new Array<string | null>(rows);
  for (let i = 0; i < rows; i++) {
    const v = values[i];
    if (isMissing(v)) out[i] = null;
    else if (typeof v === "string") out[i] = v;
    else if (typeof v === "number") out[i] = formatNumber(v);
    else if (v instanceof Date) out[i] = v.toISOString();
    else out[i] = String(v);
  }
  return { name, kind: "string", values: out };
}

/**
 * A danfo DataFrame as a Table (the index is not kept). Number columns are new
 * Float64Arrays; string and boolean columns copy the value arrays.
 */
export function tableFromDataFrame(df: DataFrameSource): Table {
  const names = (df.columns as unknown[]).map(String);
  const [rows] = df.shape as [number, number];
  const dtypes = df.dtypes;
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) throw new FormatError(`the DataFrame has two columns named "${name}"`, { column: name });
    seen.add(name);
  }
  const columns = names.map((name, k) => toColumn(name, columnValues(df, k, rows), rows, dtypes[k] ?? ""));
  return { columns, rowCount: rows };
}

function isInt32Valued(v: Float64Array): boolean {
  let any = false;
  for (let i = 0; i < v.length; i++) {
    const x = v[i] as number;
    if (x !== x) return false;
    if ((x | 0) !== x || Object.is(x, -0)) return false;
    any = true;
  }
  return any;
}

/** A column's values as danfo holds them, plus its dtype label. */
function fromColumn(column: Column, wanted: string | undefined): { values: unknown[]; dtype: DanfoDtype } {
  const rows = column.values.length;
  if (column.kind === "number") {
    const v = column.values;
    if (wanted === "string") {
      return { values: Array.from(v, (x) => (x !== x ? null : formatNumber(x))), dtype: "string" };
    }
    const values = new Array<number>(rows);
    for (let i = 0; i < rows; i++) values[i] = v[i] as number;
    const dtype = wanted === "int32" || wanted === "float32" ? wanted : isInt32Valued(v) ? "int32" : "float32";
    return { values, dtype };
  }
  if (column.kind === "boolean") {
    if (wanted === "string")
      return { values: column.values.map((b) => (b === null ? null : String(b))), dtype: "string" };
    return { values: column.values.map((b) => b ?? null), dtype: "boolean" };
  }
  const v = column.values;
  switch (wanted) {
    case "int32":
    case "float32": {
      const values = new Array<number>(rows);
      for (let i = 0; i < rows; i++) {
        const s = v[i];
        const x = s === null || s === undefined || s === "" ? NaN : parseNumberText(s);
        if (x === undefined) {
          throw new FormatError(
            `cannot restore column "${column.name}" as ${wanted}: row ${i + 1} holds ${JSON.stringify(s)}`,
            {
              column: column.name,
              row: i + 1,
              value: s as string,
            },
          );
        }
        values[i] = x;
      }
      return { values, dtype: wanted };
    }
    case "boolean": {
      const values = v.map((s) =>
        s === "true" || s === "True" || s === "TRUE"
          ? true
          : s === "false" || s === "False" || s === "FALSE"
            ? false
            : null,
      );
      return { values, dtype: "boolean" };
    }
    default:
      return { values: v.map((s) => s ?? null), dtype: "string" };
  }
}

const rowBuilders = new Map<number, (columns: unknown[][], rows: number) => unknown[][]>();

/**
 * A function that cuts column arrays into row arrays. Generated per width because a row
 * written as an array literal is built about twice as fast as one filled in a loop;
 * the generated code holds only the width, never data.
 */
function rowBuilder(width: number): (columns: unknown[][], rows: number) => unknown[][] {
  let build = rowBuilders.get(width);
  if (build === undefined) {
    const names = Array.from({ length: width }, (_, c) => `c${c}`);
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- generated from the width alone, never from data
    build = new Function(
      "columns",
      "rows",
      `"use strict"; ${names.map((n, c) => `const ${n} = columns[${c}];`).join(" ")}
       const out = new Array(rows);
       for (let i = 0; i < rows; i++) out[i] = [${names.map((n) => `${n}[i]`).join(", ")}];
       return out;`,
    ) as (columns: unknown[][], rows: number) => unknown[][];
    rowBuilders.set(width, build);
  }
  return build;
}

/**
 * A danfo DataFrame holding the table's values exactly (float64 numbers, missing numbers
 * as NaN, missing strings and booleans as null).
 */
export function dataFrameFromTable(table: Table, options: DataFrameOptions = {}): DataFrame {
  const rows = table.rowCount;
  const width = table.columns.length;
  const names = table.columns.map((c) => c.name);
  const prepared = table.columns.map((c) => fromColumn(c, options.dtypes?.[c.name]));
  const dtypes = prepared.map((p) => p.dtype);
  if (rows === 0 || width === 0) return new DataFrame([], { columns: names, dtypes });

  const byColumn = prepared.map((p) => p.values);
  const byRow = rowBuilder(width)(byColumn, rows);
  const index = new Array<number>(rows);
  for (let i = 0; i < rows; i++) index[i] = i;

  // Built empty, then filled: the public constructor would transpose the rows again and
  // push the index one by one. These are the fields that constructor sets.
  const df = new DataFrame([], { columns: names, dtypes });
  const internals = df as unknown as DanfoInternals;
  internals.$data = byRow;
  internals.$dataIncolumnFormat = internals.$config.isLowMemoryMode ? [] : byColumn;
  internals.$index = index;
  internals.$columns = names;
  internals.$dtypes = dtypes;
  return df;
}
