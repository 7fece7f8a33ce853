/**
 * Dataset I/O: each record type of the registry (registry.ts) <-> the columnar Table,
 * plus the two steps a preprocessing job needs around the engine (pick the features, put
 * the transformed columns back). Exact rules: docs/formats.md.
 */
import { booleanFeature } from "./boolean-feature.js";
import type { TableCodec, TableWriteOptions } from "./codec.js";
import { exactNumbers } from "./column-description.js";
import { FormatError } from "./format-error.js";
import { loadCodec } from "./codecs.js";
import { isRecordType, recordTypeChoices, type RecordType } from "./registry.js";
import type { Source } from "./source.js";
import type { Column, Table } from "./table.js";

export { FormatError } from "./format-error.js";
export { booleanFeature } from "./boolean-feature.js";
export type { TableCodec, TableWriteOptions } from "./codec.js";
// Each format's functions are imported from its own module: re-exported here, every
// format would load with the first (Parquet's hyparquet for a CSV job).
export type { CsvReadOptions, CsvWriteOptions } from "./csv.js";
export type { JsonReadOptions } from "./json.js";
export {
  FORMATS,
  formatOf,
  isRecordType,
  RECORD_TYPES,
  recordTypeOfPath,
  sniffRecordType,
  type FormatEntry,
  type RecordType,
} from "./registry.js";
export type { Source } from "./source.js";
export { columnNames, findColumn, type Column, type ColumnKind, type ParquetOriginal, type Table } from "./table.js";

/** A record type readTable and writeTable take: every entry of the registry. */
export type TableRecordType = RecordType;

export interface ReadTableOptions {
  /**
   * Which columns are numbers. `"auto"`, absent or an empty list: every column whose
   * values are all numbers (or missing). A non-empty list: exactly those (CSV and JSON
   * read every other column as text, so it passes through unchanged; a non-numeric
   * value in a listed column is a FormatError naming column, row and value). Arrow
   * and Parquet columns carry their type, so for them the list is only checked by selectFeatures.
   */
  readonly numericColumns?: "auto" | readonly string[] | undefined;
}

function numericOption(options: ReadTableOptions): "auto" | readonly string[] {
  const wanted = options.numericColumns;
  return wanted === undefined || wanted === "auto" || wanted.length === 0 ? "auto" : wanted;
}

/** The reader and writer of a record type; an unknown one is a FormatError at once, listing the record types. */
function codecOf(recordType: string): Promise<TableCodec> {
  if (!isRecordType(recordType)) {
    throw new FormatError(`unknown record type "${recordType}"; use ${recordTypeChoices()}`);
  }
  return loadCodec(recordType);
}

/**
 * Reads a dataset in the given record type.
 *
 * @example const table = await readTable("csv", fs.createReadStream(path), { numericColumns: ["x"] });
 */
export async function readTable(
  recordType: TableRecordType,
  source: Source,
  options: ReadTableOptions = {},
): Promise<Table> {
  return (await codecOf(recordType)).read(source, { numericColumns: numericOption(options) });
}

/** Writes a dataset in the given record type, as a stream of byte chunks. */
export function writeTable(
  recordType: TableRecordType,
  table: Table,
  options: TableWriteOptions = {},
): AsyncIterable<Uint8Array> {
  const codec = codecOf(recordType);
  return (async function* () {
    yield* (await codec).write(table, options);
  })();
}

export interface SelectedFeatures {
  readonly names: string[];
  readonly columns: Float64Array[];
}

/**
 * The feature columns of a table, as docs/contract.md#sending says: an empty list means every numeric
 * column (in table order); a named column that is missing or not numeric is a
 * FormatError naming it and listing the numeric columns. A named boolean column is a
 * feature of 1s and 0s, as in scikit-learn; an empty list leaves booleans out (as
 * pandas' `select_dtypes("number")` does), so they pass through unchanged.
 */
export function selectFeatures(table: Table, featureColumns: readonly string[]): SelectedFeatures {
  const numeric = table.columns.filter((c): c is Extract<Column, { kind: "number" }> => c.kind === "number");
  const listNumeric = () =>
    numeric.length === 0
      ? "the data has no numeric columns"
      : `numeric columns: ${numeric.map((c) => `"${c.name}"`).join(", ")}`;
  if (featureColumns.length === 0) {
    if (numeric.length === 0) {
      throw new FormatError(
        "no feature columns: the data has no numeric columns (a column is numeric when every non-empty value is a number)",
      );
    }
    return { names: numeric.map((c) => c.name), columns: numeric.map((c) => c.values) };
  }
  const names: string[] = [];
  const columns: Float64Array[] = [];
  const seen = new Set<string>();
  for (const name of featureColumns) {
    if (seen.has(name)) throw new FormatError(`feature column "${name}" is listed twice`, { column: name });
    seen.add(name);
    const column = table.columns.find((c) => c.name === name);
    if (column === undefined)
      throw new FormatError(`feature column "${name}" does not exist; ${listNumeric()}`, { column: name });
    if (column.kind === "boolean") {
      names.push(name);
      columns.push(booleanFeature(column.values));
      continue;
    }
    if (column.kind !== "number") {
      const exact = exactNumbers(column);
      const such = exact?.decider ? ` such as ${JSON.stringify(exact.decider.value)} (row ${exact.decider.row})` : "";
      const holds = exact === undefined ? `${column.kind} values` : `${exact.holds}${such}; ${exact.cast}`;
      throw new FormatError(`feature column "${name}" is not numeric (it holds ${holds}); ${listNumeric()}`, {
        column: name,
      });
    }
    names.push(name);
    columns.push(column.values);
  }
  return { names, columns };
}

/**
 * The table with the named columns replaced by new values (same length); every other
 * column is kept as it is, in the input order.
 */
export function replaceColumns(table: Table, names: readonly string[], newColumns: readonly Float64Array[]): Table {
  if (names.length !== newColumns.length)
    throw new RangeError(`${names.length} names but ${newColumns.length} columns`);
  const replacement = new Map<string, Float64Array>();
  names.forEach((name, k) => {
    const values = newColumns[k] as Float64Array;
    if (values.length !== table.rowCount) {
      throw new RangeError(`column "${name}" has ${values.length} values, the table ${table.rowCount} rows`);
    }
    replacement.set(name, values);
  });
  for (const name of names) {
    if (!table.columns.some((c) => c.name === name))
      throw new FormatError(`column "${name}" does not exist`, { column: name });
  }
  const columns: Column[] = table.columns.map((c) => {
    const values = replacement.get(c.name);
    return values === undefined ? c : { name: c.name, kind: "number", values };
  });
  return { columns, rowCount: table.rowCount };
}
