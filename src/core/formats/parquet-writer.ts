/**
 * Table -> Parquet, with hyparquet-writer (pure JavaScript): snappy-compressed, as
 * pandas writes by default. A column read from Parquet and not transformed goes back
 * with its schema and stored values (int widths, decimals, dates, timestamps, binary,
 * lists, maps, structs); other number columns are DOUBLE, text STRING, booleans
 * BOOLEAN, all nullable, with nulls for missing values (NaN included).
 */
import { ByteWriter, ParquetWriter, type ColumnSource, type SchemaElement } from "hyparquet-writer";
import { FormatError } from "./format-error.js";
import type { Column, ParquetOriginal, Table } from "./table.js";

/** Rows per row group: readers take one at a time, and it bounds the values made at once here. */
const ROW_GROUP_ROWS = 100_000;

const ENCODER = new TextEncoder();

/** hyparquet-writer's column values (it depends on its own copy of hyparquet's types). */
type DecodedArray = ColumnSource["data"];

/**
 * A number column's values from `from` to `to`, nulls where NaN; a view of the
 * Float64Array itself when nothing there is missing.
 */
function doubles(values: Float64Array, from: number, to: number): DecodedArray {
  for (let i = from; i < to; i++) {
    const x = values[i] as number;
    if (x !== x) return nullsForNaN(values, from, to);
  }
  return values.subarray(from, to);
}

function nullsForNaN(values: Float64Array, from: number, to: number): (number | null)[] {
  const out = new Array<number | null>(to - from);
  for (let i = from; i < to; i++) {
    const x = values[i] as number;
    out[i - from] = x !== x ? null : x;
  }
  return out;
}

/** How one column is written: its schema elements, and its values for rows `from` to `to`. */
interface ColumnPlan {
  readonly elements: SchemaElement[];
  readonly values: (from: number, to: number) => DecodedArray;
}

function plainColumn(column: Column): ColumnPlan {
  const base = { name: column.name, repetition_type: "OPTIONAL" } as const;
  switch (column.kind) {
    case "number": {
      const v = column.values;
      return { elements: [{ ...base, type: "DOUBLE" }], values: (from, to) => doubles(v, from, to) };
    }
    case "string": {
      const v = column.values;
      return {
        elements: [{ ...base, type: "BYTE_ARRAY", converted_type: "UTF8", logical_type: { type: "STRING" } }],
        values: (from, to) => v.slice(from, to),
      };
    }
    case "boolean": {
      const v = column.values;
      return { elements: [{ ...base, type: "BOOLEAN" }], values: (from, to) => v.slice(from, to) };
    }
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
function originalColumn(column: Column, original: ParquetOriginal): ColumnPlan {
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
  const stored = original.stored;
  if (stored !== undefined) return { elements, values: (from, to) => stored.slice(from, to) as DecodedArray };
  switch (column.kind) {
    case "number": {
      const v = column.values;
      return { elements, values: (from, to) => nullsForNaN(v, from, to) };
    }
    case "boolean": {
      const v = column.values;
      return { elements, values: (from, to) => v.slice(from, to) };
    }
    case "string": {
      const v = column.values;
      const typed = element;
      return { elements, values: (from, to) => textData(typed, v.slice(from, to)) };
    }
  }
}

/** Hands out the bytes of each row group as it is written (hyparquet-writer flushes after each). */
class ChunkWriter extends ByteWriter {
  readonly chunks: Uint8Array[] = [];

  flush(): void {
    this.chunks.push(new Uint8Array(this.buffer.slice(0, this.index)));
    this.index = 0;
  }
}

/**
 * Writes a Parquet file (snappy), 100,000 rows to a row group, each row group's bytes
 * handed out as soon as it is written.
 *
 * @example for await (const chunk of writeParquet(table)) out.write(chunk);
 */
export async function* writeParquet(table: Table): AsyncGenerator<Uint8Array> {
  const rows = table.rowCount;
  const plans = table.columns.map((c) => (c.parquet === undefined ? plainColumn(c) : originalColumn(c, c.parquet)));
  const schema: SchemaElement[] = [{ name: "schema", num_children: plans.length }, ...plans.flatMap((p) => p.elements)];
  const writer = new ChunkWriter(1 << 20);
  const parquet = new ParquetWriter({ writer, schema });
  for (let from = 0; from < rows; from += ROW_GROUP_ROWS) {
    const to = Math.min(rows, from + ROW_GROUP_ROWS);
    // Values are made a row group at a time, so nulls in place of NaN never cost a whole column of boxed numbers.
    const columnData: ColumnSource[] = table.columns.map((c, k) => ({
      name: c.name,
      data: (plans[k] as ColumnPlan).values(from, to),
    }));
    await written(() => parquet.write({ columnData, rowGroupSize: to - from }));
    yield* writer.chunks.splice(0);
    // Let other work (a server's requests) run between row groups.
    await new Promise((resolve) => setImmediate(resolve));
  }
  await written(() => parquet.finish());
  writer.flush();
  yield* writer.chunks.splice(0);
}

async function written(step: () => void | Promise<void>): Promise<void> {
  try {
    await step();
  } catch (err) {
    throw new FormatError(`the table could not be written as Parquet (${(err as Error).message})`);
  }
}
