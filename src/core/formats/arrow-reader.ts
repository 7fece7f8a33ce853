/**
 * Arrow IPC (file or stream format) -> Table. Integer and float columns become
 * Float64Array (nulls -> NaN), shared with the IPC buffer when a float64 column has
 * no nulls and one record batch; utf8 -> text, bool -> boolean. Any other type (Date,
 * Timestamp, Decimal, Dictionary, List...) passes through: its text stands in for it,
 * and writeArrow gives the original column back unchanged.
 */
import {
  RecordBatchReader,
  Type,
  tableFromIPC,
  type Data,
  type DataType,
  type Field,
  type Table as ArrowTable,
  type Vector,
} from "apache-arrow";
import { FormatError } from "./format-error.js";
import { collectBytes, type Source } from "./source.js";
import type { Column, Table } from "./table.js";

function isValid(bitmap: Uint8Array | null | undefined, nullCount: number, i: number): boolean {
  if (nullCount === 0 || bitmap == null || bitmap.length === 0) return true;
  return (((bitmap[i >> 3] as number) >> (i & 7)) & 1) === 1;
}

/** Sets NaN where the validity bitmap marks nulls, a byte (8 values) at a time. */
function markNulls(out: Float64Array, at: number, data: Data): void {
  const bitmap = data.nullBitmap as Uint8Array | undefined;
  if (data.nullCount === 0 || bitmap == null || bitmap.length === 0) return;
  const n = data.length;
  const offset = data.offset;
  for (let i = 0; i < n;) {
    const bit = offset + i;
    if ((bit & 7) === 0 && i + 8 <= n && bitmap[bit >> 3] === 0xff) {
      i += 8;
      continue;
    }
    if ((((bitmap[bit >> 3] as number) >> (bit & 7)) & 1) === 0) out[at + i] = NaN;
    i++;
  }
}

type PlainNumbers =
  Float64Array | Float32Array | Int32Array | Int16Array | Int8Array | Uint32Array | Uint16Array | Uint8Array;

/** Values a typed-array copy converts exactly (not 64-bit integers, not float16 bits). */
function isPlainNumbers(values: unknown, type: DataType): values is PlainNumbers {
  if (values instanceof Uint16Array) return type.typeId !== Type.Float; // float16 keeps raw bits in a Uint16Array
  return (
    values instanceof Float64Array ||
    values instanceof Float32Array ||
    values instanceof Int32Array ||
    values instanceof Int16Array ||
    values instanceof Int8Array ||
    values instanceof Uint32Array ||
    values instanceof Uint8Array
  );
}

function numberColumn(name: string, vector: Vector, rows: number): Column {
  const chunks = vector.data as Data[];
  const type = vector.type as DataType;
  const only = chunks[0];
  if (chunks.length === 1 && only !== undefined && type.typeId === Type.Float && only.nullCount === 0) {
    const values = only.values as unknown;
    if (values instanceof Float64Array) {
      // Zero copy: the column is a view of the IPC bytes.
      return { name, kind: "number", values: values.length === rows ? values : values.subarray(0, rows) };
    }
  }
  const out = new Float64Array(rows);
  let at = 0;
  for (const data of chunks) {
    const n = data.length;
    const values = data.values as ArrayLike<number | bigint>;
    if (isPlainNumbers(values, type)) {
      out.set(values.subarray(0, n), at);
    } else {
      // 64-bit integers (beyond 2^53 they round to the nearest double) and float16.
      for (let i = 0; i < n; i++) out[at + i] = Number(vector.get(at + i) ?? NaN);
    }
    markNulls(out, at, data);
    at += n;
  }
  return { name, kind: "number", values: out };
}

/** Whether a float column has nulls and also stores NaN as a value (distinct from null in Arrow). */
function nanBesideNulls(vector: Vector): boolean {
  if (vector.nullCount === 0) return false;
  return (vector.data as Data[]).some((data) => {
    const values = data.values as ArrayLike<number>;
    const bitmap = data.nullBitmap as Uint8Array | undefined;
    for (let i = 0; i < data.length; i++) {
      if (Number.isNaN(values[i]) && isValid(bitmap, data.nullCount, data.offset + i)) return true;
    }
    return false;
  });
}

/** A column that is not float64 (or large text) keeps its original for writeArrow, in case it passes through. */
function keepOriginal(column: Column, field: Field, vector: Vector): Column {
  if (column.kind === "boolean") return column;
  return { ...column, arrow: { typeName: arrowTypeName(field.type as DataType), field, vector } };
}

const UTF8 = new TextDecoder("utf-8");

function stringColumn(name: string, vector: Vector, rows: number): Column {
  const out = new Array<string | null>(rows);
  let at = 0;
  for (const data of vector.data as Data[]) {
    const n = data.length;
    const offsets = data.valueOffsets as Int32Array | BigInt64Array;
    const bytes = data.values as Uint8Array;
    const bitmap = data.nullBitmap as Uint8Array | undefined;
    const first = Number(offsets[0]);
    const last = Number(offsets[n]);
    let ascii = true;
    for (let k = first; k < last; k++) {
      if ((bytes[k] as number) > 0x7f) {
        ascii = false;
        break;
      }
    }
    // ASCII text is decoded once and cut; otherwise each value is decoded on its own.
    const text = ascii ? Buffer.from(bytes.buffer, bytes.byteOffset + first, last - first).toString("latin1") : "";
    for (let i = 0; i < n; i++) {
      if (!isValid(bitmap, data.nullCount, data.offset + i)) {
        out[at + i] = null;
        continue;
      }
      const a = Number(offsets[i]);
      const b = Number(offsets[i + 1]);
      out[at + i] = ascii ? text.slice(a - first, b - first) : UTF8.decode(bytes.subarray(a, b));
    }
    at += n;
  }
  return { name, kind: "string", values: out };
}

function booleanColumn(name: string, vector: Vector, rows: number): Column {
  const out = new Array<boolean | null>(rows);
  let at = 0;
  for (const data of vector.data as Data[]) {
    const bits = data.values as Uint8Array;
    const bitmap = data.nullBitmap as Uint8Array | undefined;
    for (let i = 0; i < data.length; i++) {
      const j = data.offset + i;
      out[at + i] = isValid(bitmap, data.nullCount, j) ? (((bits[j >> 3] as number) >> (j & 7)) & 1) === 1 : null;
    }
    at += data.length;
  }
  return { name, kind: "boolean", values: out };
}

/** One value of a passed-through column as text (for CSV, JSON and DataFrames). */
function cellText(value: unknown, type: DataType): string | null {
  if (value === null || value === undefined) return null;
  switch (type.typeId) {
    case Type.Date: {
      const iso = new Date(Number(value)).toISOString();
      return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso;
    }
    case Type.Timestamp:
      return new Date(Number(value)).toISOString();
    case Type.Decimal:
      // apache-arrow's DecimalBigNum prints its unscaled integer.
      return decimalText((value as { toString(): string }).toString(), (type as unknown as { scale: number }).scale);
    default:
      if (typeof value === "object") {
        const json: unknown =
          typeof (value as { toJSON?: unknown }).toJSON === "function"
            ? (value as { toJSON(): unknown }).toJSON()
            : value;
        return JSON.stringify(json, (_, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
      }
      if (typeof value === "string") return value;
      return typeof value === "number" || typeof value === "bigint" || typeof value === "boolean"
        ? value.toString()
        : null;
  }
}

/** "-12345" with scale 2 -> "-123.45". */
function decimalText(unscaled: string, scale: number): string {
  if (scale <= 0) return unscaled + "0".repeat(-scale);
  const negative = unscaled.startsWith("-");
  const digits = (negative ? unscaled.slice(1) : unscaled).padStart(scale + 1, "0");
  return `${negative ? "-" : ""}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

/** A column of another type, passed through: its text for the other formats, the original for Arrow. */
function passThrough(field: Field, vector: Vector, rows: number): Column {
  const type = field.type as DataType;
  const values = new Array<string | null>(rows);
  for (let i = 0; i < rows; i++) values[i] = cellText(vector.get(i), type);
  return { name: field.name, kind: "string", values, arrow: { typeName: arrowTypeName(type), field, vector } };
}

/** Any other column read value by value (dictionary-encoded strings, for one). */
function genericColumn(name: string, vector: Vector, rows: number, valueType: DataType): Column | undefined {
  const id = valueType.typeId;
  if (id === Type.Utf8 || id === Type.LargeUtf8) {
    const out = new Array<string | null>(rows);
    for (let i = 0; i < rows; i++) out[i] = (vector.get(i) as string | null) ?? null;
    return { name, kind: "string", values: out };
  }
  if (id === Type.Int || id === Type.Float) {
    const out = new Float64Array(rows);
    for (let i = 0; i < rows; i++) {
      const v = vector.get(i) as number | bigint | null;
      out[i] = v === null ? NaN : Number(v);
    }
    return { name, kind: "number", values: out };
  }
  return undefined;
}

/**
 * `tableFromIPC`, with an unnamed field named `""`. apache-arrow writes no name for a
 * field named `""`, reads a field without a name as `null`, and its Table then names it
 * `"null"`, where a real column of that name would collide with it. The schema as the
 * reader decodes it still has the `null`, so the names are taken from there.
 */
export function tableFromIpcKeepingNames(input: Uint8Array | readonly Uint8Array[]): ArrowTable {
  const bytes = input instanceof Uint8Array ? input : Buffer.concat(input);
  const table = tableFromIPC(bytes);
  if (!table.schema.fields.some((f) => f.name === "null")) return table;
  const reader = RecordBatchReader.from(bytes);
  reader.open();
  reader.schema.fields.forEach((field, k) => {
    const read = table.schema.fields[k];
    if ((field.name as string | null) === null && read !== undefined) (read as { name: string }).name = "";
  });
  return table;
}

/** Reads an Arrow IPC file or stream. The source is gathered into one buffer first. */
export async function readArrow(source: Source): Promise<Table> {
  const bytes = await collectBytes(source);
  let table: ArrowTable;
  try {
    table = tableFromIpcKeepingNames(bytes);
  } catch (err) {
    throw new FormatError(`the data is not a readable Arrow IPC file or stream (${(err as Error).message})`);
  }
  const rows = table.numRows;
  const columns: Column[] = table.schema.fields.map((field, k) => {
    const vector = table.getChildAt(k) as Vector;
    const type = field.type as DataType;
    switch (type.typeId) {
      case Type.Float: {
        const column = numberColumn(field.name, vector, rows);
        // A float64 column is kept as read only where NaN and null both occur: `values` holds NaN for both.
        return (type as unknown as { precision: number }).precision === 2 && !nanBesideNulls(vector)
          ? column
          : keepOriginal(column, field, vector);
      }
      case Type.Int:
        return keepOriginal(numberColumn(field.name, vector, rows), field, vector);
      case Type.Utf8:
        return stringColumn(field.name, vector, rows);
      case Type.LargeUtf8:
        return keepOriginal(stringColumn(field.name, vector, rows), field, vector);
      case Type.Bool:
        return booleanColumn(field.name, vector, rows);
      case Type.Dictionary: {
        // Dictionary-encoded text or numbers are read as such; other dictionaries pass through.
        const values = (type as unknown as { dictionary: DataType }).dictionary;
        const read = genericColumn(field.name, vector, rows, values);
        return read === undefined ? passThrough(field, vector, rows) : keepOriginal(read, field, vector);
      }
      default:
        // Dates, timestamps, decimals, lists...: passed through unchanged, never feature columns.
        return passThrough(field, vector, rows);
    }
  });
  const seen = new Set<string>();
  for (const c of columns) {
    if (seen.has(c.name)) throw new FormatError(`Arrow schema names column "${c.name}" twice; names must be unique`);
    seen.add(c.name);
  }
  return { columns, rowCount: rows };
}

/** Arrow's concrete types name themselves ("Timestamp<MILLISECOND>"); the base class's typings leave toString out. */
function arrowTypeName(type: DataType): string {
  const named: DataType & { toString(): string } = type;
  return named.toString();
}
