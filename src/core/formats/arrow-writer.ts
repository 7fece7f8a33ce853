/**
 * Table -> Arrow IPC file: float64 (the Float64Array itself is the values buffer),
 * utf8 and bool columns, one record batch, nulls for missing values (NaN included).
 */
import {
  Bool,
  Field,
  Float64,
  RecordBatch,
  RecordBatchFileWriter,
  Schema,
  Struct,
  Table as ArrowTable,
  Utf8,
  makeData,
  makeVector,
  type Data,
  type Vector,
} from "apache-arrow";
import { FormatError } from "./format-error.js";
import type { Column, Table } from "./table.js";

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
  if (table.columns.some((c) => c.kind !== "boolean" && c.arrow !== undefined)) {
    yield* writeWithOriginals(table);
    return;
  }
  const rows = table.rowCount;
  const datas = table.columns.map((c) => toArrowData(c, rows));
  const fields = table.columns.map((c, k) => new Field(c.name, (datas[k] as Data).type, true));
  const schema = new Schema(fields);
  const batch = new RecordBatch(schema, makeData({ type: new Struct(fields), length: rows, children: datas }));
  const writer = RecordBatchFileWriter.writeAll([batch]);
  for await (const chunk of writer) yield chunk;
}

/**
 * A table holding passed-through Arrow columns: those go back as they were read (their
 * record batches may be cut differently, so Arrow's Table aligns the columns' chunks).
 */
async function* writeWithOriginals(table: Table): AsyncGenerator<Uint8Array> {
  const rows = table.rowCount;
  const fields: Field[] = [];
  const vectors: Record<string, Vector> = {};
  for (const column of table.columns) {
    if (column.kind !== "boolean" && column.arrow !== undefined) {
      fields.push(column.arrow.field as Field);
      vectors[column.name] = column.arrow.vector as Vector;
    } else {
      const data = toArrowData(column, rows);
      fields.push(new Field(column.name, data.type, true));
      vectors[column.name] = makeVector(data);
    }
  }
  const arrowTable = new ArrowTable(new Schema(fields), vectors);
  const writer = RecordBatchFileWriter.writeAll(arrowTable);
  for await (const chunk of writer) yield chunk;
}
