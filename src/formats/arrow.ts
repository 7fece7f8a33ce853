/**
 * Apache Arrow IPC (file format written; file and stream formats read) <-> Table.
 * Numbers become Float64Array (nulls -> NaN), sharing the IPC buffer when a float64
 * column has no nulls; NaN is written as null with a validity bitmap.
 */
import {
  Bool,
  Field,
  Float64,
  RecordBatch,
  RecordBatchFileWriter,
  Schema,
  Struct,
  Type,
  Utf8,
  makeData,
  tableFromIPC,
  type Data,
  type DataType,
  type Table as ArrowTable,
  type Vector,
} from "apache-arrow";
import { FormatError } from "./format-error.js";
import { collectBytes, type Source } from "./source.js";
import type { Column, Table } from "./table.js";

function isValid(bitmap: Uint8Array | null | undefined, nullCount: number, i: number): boolean {
  return nullCount === 0 || bitmap == null || bitmap.length === 0 || ((bitmap[i >> 3] as number) >> (i & 7)) & 1 ? true : false;
}

/** Sets NaN where the validity bitmap marks nulls, a byte (8 values) at a time. */
function markNulls(out: Float64Array, at: number, data: Data): void {
  const bitmap = data.nullBitmap as Uint8Array | undefined;
  if (data.nullCount === 0 || bitmap == null || bitmap.length === 0) return;
  const n = data.length;
  const offset = data.offset;
  for (let i = 0; i < n; ) {
    const bit = offset + i;
    if ((bit & 7) === 0 && i + 8 <= n && bitmap[bit >> 3] === 0xff) {
      i += 8;
      continue;
    }
    if ((((bitmap[bit >> 3] as number) >> (bit & 7)) & 1) === 0) out[at + i] = NaN;
    i++;
  }
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
    if (values instanceof Float64Array || values instanceof Float32Array || values instanceof Int32Array ||
        values instanceof Int16Array || values instanceof Int8Array || values instanceof Uint32Array ||
        values instanceof Uint16Array && type.typeId !== Type.Float || values instanceof Uint8Array) {
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

const UTF8 = new TextDecoder("utf-8");

function stringColumn(name: string, vector: Vector, rows: number): Column {
  const out: (string | null)[] = new Array(rows);
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
  const out: (boolean | null)[] = new Array(rows);
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

/** Any other column read value by value (dictionary-encoded strings, for one). */
function genericColumn(name: string, vector: Vector, rows: number, valueType: DataType): Column {
  const id = valueType.typeId;
  if (id === Type.Utf8 || id === Type.LargeUtf8) {
    const out: (string | null)[] = new Array(rows);
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
  throw new FormatError(
    `Arrow column "${name}" has type ${String(valueType)}, which mdps does not read; ` +
      `store it as float64 (or another integer/float type), utf8 or bool`,
    { column: name },
  );
}

/** Reads an Arrow IPC file or stream. The source is gathered into one buffer first. */
export async function readArrow(source: Source): Promise<Table> {
  const bytes = await collectBytes(source);
  let table: ArrowTable;
  try {
    table = tableFromIPC(bytes);
  } catch (err) {
    throw new FormatError(`the data is not a readable Arrow IPC file or stream (${(err as Error).message})`);
  }
  const rows = table.numRows;
  const columns: Column[] = table.schema.fields.map((field, k) => {
    const vector = table.getChildAt(k) as Vector;
    const type = field.type as DataType;
    switch (type.typeId) {
      case Type.Float:
      case Type.Int:
        return numberColumn(field.name, vector, rows);
      case Type.Utf8:
      case Type.LargeUtf8:
        return stringColumn(field.name, vector, rows);
      case Type.Bool:
        return booleanColumn(field.name, vector, rows);
      case Type.Dictionary:
        return genericColumn(field.name, vector, rows, (type as unknown as { dictionary: DataType }).dictionary);
      default:
        return genericColumn(field.name, vector, rows, type);
    }
  });
  const seen = new Set<string>();
  for (const c of columns) {
    if (seen.has(c.name)) throw new FormatError(`Arrow schema names column "${c.name}" twice; names must be unique`);
    seen.add(c.name);
  }
  return { columns, rowCount: rows };
}

/** Validity bitmap (bit set = present) or null when nothing is missing. */
function validity(rows: number, missing: (i: number) => boolean): { bitmap: Uint8Array | undefined; nulls: number } {
  let bitmap: Uint8Array | undefined;
  let nulls = 0;
  for (let i = 0; i < rows; i++) {
    if (!missing(i)) continue;
    if (bitmap === undefined) bitmap = new Uint8Array((rows + 7) >> 3).fill(0xff);
    bitmap[i >> 3] = (bitmap[i >> 3] as number) & ~(1 << (i & 7));
    nulls++;
  }
  return { bitmap, nulls };
}

/** validity() for a number column: NaN is missing. A plain loop: this runs over every value. */
function nanValidity(v: Float64Array, rows: number): { bitmap: Uint8Array | undefined; nulls: number } {
  let first = -1;
  for (let i = 0; i < rows; i++) {
    const x = v[i] as number;
    if (x !== x) {
      first = i;
      break;
    }
  }
  if (first < 0) return { bitmap: undefined, nulls: 0 };
  const bitmap = new Uint8Array((rows + 7) >> 3).fill(0xff);
  let nulls = 0;
  for (let i = first; i < rows; i++) {
    const x = v[i] as number;
    if (x !== x) {
      bitmap[i >> 3] = (bitmap[i >> 3] as number) & ~(1 << (i & 7));
      nulls++;
    }
  }
  return { bitmap, nulls };
}

function toArrowData(column: Column, rows: number): Data {
  switch (column.kind) {
    case "number": {
      const v = column.values;
      const { bitmap, nulls } = nanValidity(v, rows);
      // The values buffer is the column itself (no copy); NaN slots are masked by the bitmap.
      return makeData({ type: new Float64(), length: rows, nullCount: nulls, nullBitmap: bitmap, data: v });
    }
    case "boolean": {
      const v = column.values;
      const bits = new Uint8Array((rows + 7) >> 3);
      for (let i = 0; i < rows; i++) if (v[i] === true) bits[i >> 3] = (bits[i >> 3] as number) | (1 << (i & 7));
      const { bitmap, nulls } = validity(rows, (i) => v[i] === null || v[i] === undefined);
      return makeData({ type: new Bool(), length: rows, nullCount: nulls, nullBitmap: bitmap, data: bits });
    }
    case "string": {
      const v = column.values;
      const offsets = new Int32Array(rows + 1);
      let bytes = new Uint8Array(Math.max(64, rows * 8));
      let used = 0;
      const encoder = new TextEncoder();
      for (let i = 0; i < rows; i++) {
        const s = v[i];
        if (s !== null && s !== undefined && s.length > 0) {
          // UTF-8 takes at most 3 bytes per UTF-16 unit.
          if (used + s.length * 3 > bytes.length) {
            const grown = new Uint8Array(Math.max(bytes.length * 2, used + s.length * 3));
            grown.set(bytes.subarray(0, used));
            bytes = grown;
          }
          used += encoder.encodeInto(s, bytes.subarray(used)).written;
          if (used > 0x7fffffff) throw new FormatError(`column "${column.name}" holds more than 2 GiB of text`);
        }
        offsets[i + 1] = used;
      }
      const { bitmap, nulls } = validity(rows, (i) => v[i] === null || v[i] === undefined);
      return makeData({
        type: new Utf8(),
        length: rows,
        nullCount: nulls,
        nullBitmap: bitmap,
        valueOffsets: offsets,
        data: bytes.subarray(0, used),
      });
    }
  }
}

/** Writes an Arrow IPC file: float64, utf8 and bool columns, nulls where values are missing. */
export async function* writeArrow(table: Table): AsyncGenerator<Uint8Array> {
  const rows = table.rowCount;
  const datas = table.columns.map((c) => toArrowData(c, rows));
  const fields = table.columns.map((c, k) => new Field(c.name, (datas[k] as Data).type, true));
  const schema = new Schema(fields);
  const batch = new RecordBatch(schema, makeData({ type: new Struct(fields), length: rows, children: datas }));
  const writer = RecordBatchFileWriter.writeAll([batch]);
  for await (const chunk of writer) yield chunk;
}
