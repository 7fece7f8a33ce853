/**
 * Table -> Parquet, with hyparquet-writer (pure JavaScript): snappy-compressed, as
 * pandas writes by default. A column read from Parquet and not transformed goes back
 * with its schema and stored values (int widths, decimals, dates, timestamps, binary,
 * lists, maps, structs); other number columns are DOUBLE, text STRING, booleans
 * BOOLEAN, all nullable, with nulls for missing values (NaN included).
 */
import { ByteWriter, parquetWrite, type ColumnSource, type SchemaElement } from "hyparquet-writer";
import { FormatError } from "./format-error.js";
import type { Column, ParquetOriginal, Table } from "./table.js";

/** Chunk size of the bytes handed out, so a consumer can stream them. */
const CHUNK_BYTES = 1 << 20;

const ENCODER = new TextEncoder();

/** hyparquet-writer's column values (it depends on its own copy of hyparquet's types). */
type DecodedArray = ColumnSource["data"];

/** A number column's values, nulls where NaN; the Float64Array itself when nothing is missing. */
function doubles(values: Float64Array, rows: number): DecodedArray {
  const v = values.length === rows ? values : values.subarray(0, rows);
  for (let i = 0; i < rows; i++) {
    const x = v[i] as number;
    if (x !== x) return Array.from(v, (y) => (y !== y ? null : y));
  }
  return v;
}

function nullsForNaN(values: Float64Array, rows: number): (number | null)[] {
  const out = new Array<number | null>(rows);
  for (let i = 0; i < rows; i++) {
    const x = values[i] as number;
    out[i] = x !== x ? null : x;
  }
  return out;
}

function plainColumn(column: Column, rows: number): { element: SchemaElement; data: DecodedArray } {
  const base = { name: column.name, repetition_type: "OPTIONAL" } as const;
  switch (column.kind) {
    case "number":
      return { element: { ...base, type: "DOUBLE" }, data: doubles(column.values, rows) };
    case "string":
      return {
        element: { ...base, type: "BYTE_ARRAY", converted_type: "UTF8", logical_type: { type: "STRING" } },
        data: column.values.slice(0, rows),
      };
    case "boolean":
      return { element: { ...base, type: "BOOLEAN" }, data: column.values.slice(0, rows) };
  }
}

/** Text values as hyparquet-writer takes them for this element (it encodes STRING and UUID itself, JSON as a value). */
function textData(element: SchemaElement, values: ReadonlyArray<string | null>): DecodedArray {
  const ctype = element.converted_type;
  const ltype = element.logical_type?.type;
  if (ctype === "UTF8" || ltype === "STRING" || ltype === "UUID") return [...values];
  if (ctype === "JSON" || ltype === "JSON") return values.map((v) => (v === null ? null : (JSON.parse(v) as unknown)));
  return values.map((v) => (v === null ? null : ENCODER.encode(v)));
}

/** A column as read from Parquet: its schema elements and values as stored. */
function originalColumn(
  column: Column,
  original: ParquetOriginal,
  rows: number,
): { elements: SchemaElement[]; data: DecodedArray } {
  const [top, ...below] = original.schema as SchemaElement[];
  if (top === undefined) throw new FormatError(`column "${column.name}" has no Parquet schema`);
  let element: SchemaElement = { ...top, name: column.name };
  const ltype = element.logical_type?.type;
  if (ltype === "GEOMETRY" || ltype === "GEOGRAPHY") {
    throw new FormatError(
      `column "${column.name}" is a Parquet ${ltype} column, which mdps cannot write back; drop it or write another format`,
      { column: column.name },
    );
  }
  if (element.type === "INT96") {
    // hyparquet-writer cannot write the legacy INT96; the same instants as INT64 nanoseconds.
    element = {
      name: column.name,
      type: "INT64",
      repetition_type: element.repetition_type,
      logical_type: { type: "TIMESTAMP", isAdjustedToUTC: false, unit: "NANOS" },
    };
  }
  const elements = [element, ...below];
  if (original.stored !== undefined) return { elements, data: original.stored.slice(0, rows) as DecodedArray };
  switch (column.kind) {
    case "number":
      return { elements, data: nullsForNaN(column.values, rows) };
    case "boolean":
      return { elements, data: column.values.slice(0, rows) };
    case "string":
      return { elements, data: textData(element, column.values.slice(0, rows)) };
  }
}

/**
 * Writes a Parquet file (snappy): one row group per 100,000 rows, the first of 1,000 for
 * quick previews (hyparquet-writer's default).
 *
 * @example for await (const chunk of writeParquet(table)) out.write(chunk);
 */
export async function* writeParquet(table: Table): AsyncGenerator<Uint8Array> {
  await Promise.resolve();
  const rows = table.rowCount;
  const schema: SchemaElement[] = [{ name: "schema", num_children: table.columns.length }];
  const columnData: ColumnSource[] = [];
  for (const column of table.columns) {
    if (column.parquet !== undefined) {
      const { elements, data } = originalColumn(column, column.parquet, rows);
      schema.push(...elements);
      columnData.push({ name: column.name, data });
    } else {
      const { element, data } = plainColumn(column, rows);
      schema.push(element);
      columnData.push({ name: column.name, data });
    }
  }
  const writer = new ByteWriter();
  try {
    await parquetWrite({ writer, columnData, schema });
  } catch (err) {
    throw new FormatError(`the table could not be written as Parquet (${(err as Error).message})`);
  }
  const bytes = writer.getBytes();
  for (let at = 0; at < bytes.length; at += CHUNK_BYTES) yield bytes.subarray(at, at + CHUNK_BYTES);
}
