/**
 * Parquet -> Table, with hyparquet (pure JavaScript) and hyparquet-compressors (gzip,
 * zstd, brotli, lz4; snappy is built in). Number columns (ints of every width, float,
 * double, float16) become Float64Array, nulls NaN (a column that also stores NaN keeps
 * which was which, for writeParquet); strings text; booleans booleans.
 * Every other column (64-bit integers beyond 2^53 aside, decimals, dates, times,
 * timestamps, binary, lists, maps, structs) passes through: its text stands in for it
 * in the other formats, and writeParquet gives the column back as stored.
 */
import {
  parquetMetadata,
  parquetRead,
  parquetSchema,
  type AsyncBuffer,
  type FileMetaData,
  type SchemaElement,
  type SchemaTree,
} from "hyparquet";
import { compressors } from "hyparquet-compressors";
import { FormatError } from "./format-error.js";
import {
  columnRole,
  dateText,
  decimalText,
  nestedText,
  parquetTypeName,
  readsRaw,
  timeText,
  timestampText,
  unscaledOf,
  type ParquetColumnRole,
} from "./parquet-types.js";
import { collectBytes, type Source } from "./source.js";
import type { Column, ParquetOriginal, Table } from "./table.js";

/** hyparquet's reader over bytes in memory, without copying them first. */
function asyncBuffer(bytes: Uint8Array): AsyncBuffer {
  return {
    byteLength: bytes.byteLength,
    slice: (start, end) =>
      bytes.buffer.slice(bytes.byteOffset + start, bytes.byteOffset + (end ?? bytes.byteLength)) as ArrayBuffer,
  };
}

/** Dates and timestamps as stored (days, bigint units), so no precision is lost on the way. */
const STORED_PARSERS = {
  dateFromDays: (days: number) => days,
  timestampFromMilliseconds: (stored: bigint) => stored,
  timestampFromMicroseconds: (stored: bigint) => stored,
  timestampFromNanoseconds: (stored: bigint) => stored,
};

/** The metadata with the annotations hyparquet would decode lossily (decimals to floats) taken off the elements. */
function rawMetadata(metadata: FileMetaData): FileMetaData {
  const schema: SchemaElement[] = metadata.schema.map((e) =>
    readsRaw(e) ? { ...e, converted_type: undefined, logical_type: undefined } : e,
  );
  return { ...metadata, schema };
}

/** Where one top-level column's values go as hyparquet hands out its chunks. */
interface Gathered {
  /** Number columns: written straight into a Float64Array (null -> NaN), no array of boxed numbers in between. */
  readonly numbers: Float64Array | undefined;
  /** The values as hyparquet decoded them, for every other column and for 64-bit integers. */
  readonly values: unknown[] | undefined;
  /** Number columns: the rows that are NULL, once there is one (NaN stands for both in `numbers`). */
  nullRows: Uint8Array | undefined;
  /** Number columns: whether a stored value is NaN, a value distinct from NULL. */
  hasNaN: boolean;
}

function gathered(role: ParquetColumnRole, rows: number): Gathered {
  if (role.role !== "number")
    return { numbers: undefined, values: new Array<unknown>(rows), nullRows: undefined, hasNaN: false };
  return {
    numbers: new Float64Array(rows),
    values: role.stored ? new Array<unknown>(rows) : undefined,
    nullRows: undefined,
    hasNaN: false,
  };
}

function putNumbers(sink: Gathered, out: Float64Array, at: number, values: ArrayLike<unknown>, n: number): void {
  if (values instanceof Float64Array || values instanceof Float32Array || values instanceof Int32Array) {
    out.set(values.subarray(0, n), at);
    if (!(values instanceof Int32Array) && !sink.hasNaN) {
      for (let i = 0; i < n; i++) if (Number.isNaN(values[i])) sink.hasNaN = true;
    }
    return;
  }
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (v === null || v === undefined) {
      out[at + i] = NaN;
      (sink.nullRows ??= new Uint8Array(out.length))[at + i] = 1;
    } else {
      const x = typeof v === "bigint" ? Number(v) : (v as number);
      if (x !== x) sink.hasNaN = true;
      out[at + i] = x;
    }
  }
}

/**
 * A double or float column that holds NaN, as the writer needs it to give NaN back as NaN
 * and NULL as NULL (`numbers` holds NaN for both).
 */
function nanAndNulls(data: Gathered): (number | null)[] | undefined {
  const numbers = data.numbers;
  if (!data.hasNaN || numbers === undefined) return undefined;
  const nulls = data.nullRows;
  return Array.from(numbers, (x, i) => (nulls !== undefined && nulls[i] === 1 ? null : x));
}

/** Whole-file read, gathered per top-level column from hyparquet's per-row-group chunks. */
async function readColumns(bytes: Uint8Array, metadata: FileMetaData, sinks: Map<string, Gathered>, rows: number) {
  await parquetRead({
    file: asyncBuffer(bytes),
    metadata: rawMetadata(metadata),
    compressors,
    utf8: false,
    geoparquet: false,
    parsers: STORED_PARSERS,
    onChunk: ({ columnName, columnData, rowStart }) => {
      const sink = sinks.get(columnName);
      if (sink === undefined) return;
      const values = columnData as ArrayLike<unknown>;
      const n = Math.min(values.length, rows - rowStart);
      if (sink.numbers !== undefined) putNumbers(sink, sink.numbers, rowStart, values, n);
      const out = sink.values;
      if (out !== undefined) for (let i = 0; i < n; i++) out[rowStart + i] = values[i];
    },
  });
}

const UTF8 = new TextDecoder("utf-8");
const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });

function isMissing(value: unknown): value is null | undefined {
  return value === null || value === undefined;
}

function texts(values: readonly unknown[], each: (v: never) => string): (string | null)[] {
  const out = new Array<string | null>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    out[i] = isMissing(v) ? null : each(v as never);
  }
  return out;
}

/** Unannotated bytes are text when every value is UTF-8 (what most writers of such files mean); else binary. */
function utf8Texts(values: readonly unknown[]): (string | null)[] | undefined {
  try {
    return texts(values, (v: Uint8Array | string) => (typeof v === "string" ? v : STRICT_UTF8.decode(v)));
  } catch {
    return undefined;
  }
}

const MAX_EXACT = BigInt(Number.MAX_SAFE_INTEGER) + 1n;

/** A 64-bit integer a double cannot hold exactly. */
function beyondDouble(value: unknown): boolean {
  return typeof value === "bigint" && (value > MAX_EXACT || value < -MAX_EXACT);
}

function base64(v: Uint8Array): string {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("base64");
}

function toColumn(tree: SchemaTree, role: ParquetColumnRole, data: Gathered): Column {
  const name = tree.element.name;
  const values = data.values ?? [];
  const subtree = flatten(tree);
  const original = (stored?: readonly unknown[]): ParquetOriginal => ({
    typeName: parquetTypeName(tree),
    schema: subtree,
    stored,
  });
  switch (role.role) {
    case "number":
      // A double holds every integer up to 2^53 exactly; a 64-bit column with larger values
      // (ids, most often) passes through as its exact text rather than be rounded.
      if (role.stored && values.some(beyondDouble)) {
        return {
          name,
          kind: "string",
          values: texts(values, (v: bigint) => v.toString()),
          parquet: original(values),
        };
      }
      return {
        name,
        kind: "number",
        values: data.numbers ?? new Float64Array(0),
        parquet: original(role.stored ? values : nanAndNulls(data)),
      };
    case "boolean":
      return {
        name,
        kind: "boolean",
        values: values.map((v) => (isMissing(v) ? null : Boolean(v))),
        parquet: original(),
      };
    case "text": {
      const text = texts(values, (v: Uint8Array | string) => (typeof v === "string" ? v : UTF8.decode(v)));
      return { name, kind: "string", values: text, parquet: original() };
    }
    case "decimal":
      return {
        name,
        kind: "string",
        values: texts(values, (v: number | bigint | Uint8Array) => decimalText(unscaledOf(v), role.scale)),
        parquet: original(values.map((v) => (isMissing(v) ? null : unscaledOf(v as number | bigint | Uint8Array)))),
      };
    case "date":
      return { name, kind: "string", values: texts(values, dateText), parquet: original(values) };
    case "timestamp":
      return {
        name,
        kind: "string",
        values: texts(values, (v: bigint) => timestampText(v, role.unit, role.utc)),
        parquet: original(values),
      };
    case "time":
      return {
        name,
        kind: "string",
        values: texts(values, (v: bigint | number) => timeText(v, role.unit)),
        parquet: original(values),
      };
    case "binary": {
      const plain = tree.element.converted_type === undefined && tree.element.logical_type === undefined;
      const text = plain ? utf8Texts(values) : undefined;
      if (text !== undefined) return { name, kind: "string", values: text, parquet: original() };
      return { name, kind: "string", values: texts(values, base64), parquet: original(values) };
    }
    case "nested":
      return { name, kind: "string", values: texts(values, nestedText), parquet: original(values) };
  }
}

/** An unsigned 32-bit integer column, which hyparquet reads as INT32 and converts. */
function isUint32(element: SchemaElement): boolean {
  const ltype = element.logical_type;
  return (
    element.converted_type === "UINT_32" || (ltype?.type === "INTEGER" && ltype.bitWidth === 32 && !ltype.isSigned)
  );
}

/**
 * hyparquet 1.33 reads the first value of a DELTA_BINARY_PACKED block through a 32-bit
 * varint, so an unsigned 32-bit value of 2^31 or more written there as a positive number
 * (DuckDB does, with PARQUET_VERSION v2) comes back 2^31 too small, and every value
 * after it in the page too. Refused, rather than read wrong.
 */
function refuseDeltaUint32(metadata: FileMetaData): void {
  const uint32 = new Set(metadata.schema.filter(isUint32).map((e) => e.name));
  for (const group of metadata.row_groups) {
    for (const chunk of group.columns) {
      const meta = chunk.meta_data;
      const name = meta?.path_in_schema.join(".");
      if (meta === undefined || name === undefined || meta.path_in_schema.length !== 1 || !uint32.has(name)) continue;
      if (meta.encodings.includes("DELTA_BINARY_PACKED")) {
        throw new FormatError(
          `column "${name}" holds unsigned 32-bit integers in DELTA_BINARY_PACKED pages, which the Parquet reader mdps ` +
            `uses (hyparquet 1.33) can misread; write the file with version 1 data pages (DuckDB: PARQUET_VERSION v1, ` +
            `the default) or the column as BIGINT, and read it again`,
          { column: name },
        );
      }
    }
  }
}

/** The schema elements of a top-level column: its own and, for a group, all below it, depth first. */
function flatten(tree: SchemaTree): SchemaElement[] {
  return [tree.element, ...tree.children.flatMap(flatten)];
}

/**
 * Reads a Parquet file (every codec pandas, pyarrow, DuckDB or Spark write). The source is
 * gathered into one buffer first: Parquet's footer, at the end, says where everything is.
 *
 * @example const table = await readParquet(await fs.promises.readFile("data.parquet"));
 */
export async function readParquet(source: Source): Promise<Table> {
  const bytes = await collectBytes(source);
  let metadata: FileMetaData;
  try {
    metadata = parquetMetadata(bytes, { geoparquet: false });
  } catch (err) {
    throw new FormatError(`the data is not a readable Parquet file (${(err as Error).message})`);
  }
  refuseDeltaUint32(metadata);
  const rows = Number(metadata.num_rows);
  const trees = parquetSchema(metadata).children;
  const names = trees.map((t) => t.element.name);
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) throw new FormatError(`the Parquet schema names column "${name}" twice; names must be unique`);
    seen.add(name);
  }
  const roles = trees.map(columnRole);
  const sinks = new Map(trees.map((tree, k) => [tree.element.name, gathered(roles[k] as ParquetColumnRole, rows)]));
  try {
    await readColumns(bytes, metadata, sinks, rows);
  } catch (err) {
    throw new FormatError(`the Parquet file could not be read (${(err as Error).message})`);
  }
  const columns = trees.map((tree, k) =>
    toColumn(tree, roles[k] as ParquetColumnRole, sinks.get(tree.element.name) as Gathered),
  );
  return { columns, rowCount: rows };
}
