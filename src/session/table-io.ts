/**
 * The Session's bridge to src/core/formats and src/core/crypto: DataFrames and files to byte
 * streams for upload, and downloaded byte streams back to DataFrames. Every path
 * streams; a DataFrame is held once as a Table while its bytes are produced.
 */
import { createReadStream, createWriteStream } from "node:fs";
import { rename, rm, stat } from "node:fs/promises";
import { pipeline, Readable } from "node:stream";
import { pipeline as pipelineAsync } from "node:stream/promises";
import type { DataFrame } from "danfojs-node";
import type { RecordType } from "../core/contract/blob.js";
import { recordTypeChoices, recordTypeOfPath, sniffRecordType } from "../core/formats/registry.js";
import { createDecryptStream, createEncryptStream, parseEncryptionKey } from "../core/crypto/index.js";
import type { Table } from "../core/formats/table.js";
import type { Secret } from "../client/secret.js";
import { validationBeforeSending } from "./validation-before-sending.js";
import { assertFrameFits } from "./frame-size.js";
import { frameOriginName } from "./frame-origin.js";

export type { DataFrame };

/**
 * danfo (with TensorFlow.js behind it) takes a second or more to load: load it, and
 * the formats, on first use, so `import "mdps"` stays fast for the CLI and REPL.
 */
export const loadDanfo = () => import("../core/formats/danfo.js");
export const loadFormats = () => import("../core/formats/index.js");
export type DanfoModule = Awaited<ReturnType<typeof loadDanfo>>;

/** What can be uploaded: a danfo DataFrame, a file path, or bytes. */
export type Uploadable = DataFrame | string | Uint8Array;

/** The column order and danfo dtypes of a DataFrame, to restore them after a job. */
export interface FrameShape {
  readonly columns: readonly string[];
  readonly dtypes: Readonly<Record<string, string>>;
}

/** The shape of a job's output: the input's columns, with the dtypes of those not transformed (features become float64). */
export function outputShape(input: FrameShape | undefined, features: readonly string[]): FrameShape | undefined {
  if (input === undefined) return undefined;
  const transformed = new Set(features);
  const dtypes = Object.fromEntries(Object.entries(input.dtypes).filter(([name]) => !transformed.has(name)));
  return { columns: input.columns, dtypes };
}

/** Bytes to send, as a factory so a retry can produce them again. */
export interface UploadSource {
  readonly recordType: RecordType;
  readonly open: () => AsyncIterable<Uint8Array> | Uint8Array;
  readonly shape: FrameShape | undefined;
  /** A name to default to (the file's base name). */
  readonly suggestedName: string | undefined;
}

/** Duck-typed, so a DataFrame from another copy of danfo (a notebook's own install) counts too. */
export function isDataFrame(value: unknown): value is DataFrame {
  const v = value as { columns?: unknown; dtypes?: unknown; values?: unknown; $data?: unknown } | null;
  return typeof v === "object" && v !== null && Array.isArray(v.columns) && Array.isArray(v.dtypes) && "$data" in v;
}

/**
 * With the Table read from the frame: a column danfo labels numeric but that holds text
 * (its readCSV labels a column of numbers and "NA" float32) is restored as text.
 */
export function frameShape(df: DataFrame, table?: Table): FrameShape {
  const columns = df.columns.map(String);
  const dtypes: Record<string, string> = {};
  columns.forEach((c, i) => {
    const kind = table?.columns[i]?.kind;
    dtypes[c] = kind === "string" ? "string" : String(df.dtypes[i]);
  });
  return { columns, dtypes };
}

export { recordTypeOfPath, sniffRecordType } from "../core/formats/registry.js";

/** Turns what the user passed into bytes of a record type, checking it first. */
export async function uploadSource(
  data: Uploadable,
  recordType: RecordType | undefined,
  wireFormat: RecordType,
): Promise<UploadSource> {
  if (typeof data === "string") {
    const fromExt = recordTypeOfPath(data);
    const type = recordType ?? fromExt;
    if (type === undefined) {
      throw validationBeforeSending({
        recordType: [
          `cannot tell the format of ${data} from its extension: pass recordType (${recordTypeChoices({ quoted: true })})`,
        ],
      });
    }
    const info = await stat(data).catch((error: unknown) => {
      const { code, message } = error as NodeJS.ErrnoException;
      const why = code === "ENOENT" ? "no such file" : code === "EACCES" ? "permission denied" : (code ?? message);
      throw validationBeforeSending({ path: [`cannot read ${data}: ${why}`] });
    });
    if (!info.isFile()) throw validationBeforeSending({ path: [`${data} is not a file`] });
    const base = data.split(/[\\/]/).pop() ?? data;
    return {
      recordType: type,
      open: () => createReadStream(data, { highWaterMark: 1 << 20 }),
      shape: undefined,
      suggestedName: base,
    };
  }
  if (data instanceof Uint8Array) {
    return {
      recordType: recordType ?? sniffRecordType(data),
      open: () => data,
      shape: undefined,
      suggestedName: undefined,
    };
  }
  if (isDataFrame(data)) {
    const type = recordType ?? wireFormat;
    const [{ tableFromDataFrame }, { writeTable }] = await Promise.all([loadDanfo(), loadFormats()]);
    const table = tableFromDataFrame(data);
    return {
      recordType: type,
      open: () => writeTable(type, table),
      shape: frameShape(data, table),
      suggestedName: frameOriginName(data, type),
    };
  }
  throw validationBeforeSending({ data: ["must be a danfo DataFrame, a file path or a Buffer/Uint8Array"] });
}

/** Wraps a byte source in the AES-256-GCM envelope (a fresh nonce prefix each time). */
export function encrypted(open: UploadSource["open"], key: Secret): () => AsyncIterable<Uint8Array> {
  return () => {
    const source = open();
    const input = source instanceof Uint8Array ? Readable.from([source]) : Readable.from(source);
    const out = createEncryptStream(parseEncryptionKey(key.reveal()));
    pipeline(input, out, () => undefined);
    return out;
  };
}

/** The downloaded bytes, decrypted when a key is given. */
export function decrypted(body: Readable, key: Secret | undefined): Readable {
  if (key === undefined) return body;
  const out = createDecryptStream(parseEncryptionKey(key.reveal()));
  pipeline(body, out, () => undefined);
  return out;
}

export interface DecodeOptions {
  /** danfo dtypes per column to restore (passthrough columns of the input). */
  readonly dtypes?: Readonly<Record<string, string>> | undefined;
  /** Column order to restore. */
  readonly columns?: readonly string[] | undefined;
  /** Columns to read as numbers (CSV and JSON), e.g. a job's feature columns. */
  readonly numericColumns?: readonly string[] | undefined;
}

export async function decodeTable(
  recordType: RecordType,
  body: AsyncIterable<Uint8Array>,
  options: DecodeOptions = {},
): Promise<Table> {
  const { readTable } = await loadFormats();
  const table = await readTable(recordType, body, {
    numericColumns: options.numericColumns ? [...options.numericColumns] : [],
  });
  return options.columns ? reorder(table, options.columns) : table;
}

export interface FrameSizeCheck {
  /** Names the data in a FrameTooLargeError ("Job 1234's output 1"). */
  readonly what: string;
  /** What to do instead, when it is too large. */
  readonly instead: string;
}

/**
 * The table as a danfo DataFrame, after checking that the frame fits the heap (else a
 * FrameTooLargeError, before anything is built).
 */
export function toDataFrame(
  danfo: DanfoModule,
  table: Table,
  options: DecodeOptions = {},
  check: FrameSizeCheck = {
    what: "The data",
    instead: "Keep it as a file or an Arrow Table, or give Node more heap: node --max-old-space-size=<MiB>.",
  },
): DataFrame {
  assertFrameFits({ rows: table.rowCount, columns: table.columns.length }, check.what, check.instead);
  return danfo.dataFrameFromTable(table, options.dtypes ? { dtypes: { ...options.dtypes } } : {});
}

/**
 * Writes a byte stream to `path` through a temporary file beside it, renamed into place
 * once whole: a failed or interrupted write leaves no partial file.
 */
export async function writeFileAtomically(path: string, bytes: AsyncIterable<Uint8Array>): Promise<number> {
  const tmp = `${path}.${process.pid}.part`;
  let size = 0;
  try {
    await pipelineAsync(
      Readable.from(bytes),
      async function* (chunks: AsyncIterable<Uint8Array>) {
        for await (const chunk of chunks) {
          size += chunk.byteLength;
          yield chunk;
        }
      },
      createWriteStream(tmp),
    );
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
  return size;
}

/** Puts the columns in `order` (those it names), the rest after in their own order. */
function reorder(table: Table, order: readonly string[]): Table {
  const byName = new Map(table.columns.map((c) => [c.name, c]));
  const first = order.flatMap((n) => byName.get(n) ?? []);
  const rest = table.columns.filter((c) => !order.includes(c.name));
  return { columns: [...first, ...rest], rowCount: table.rowCount };
}

/** The record type of a stream by its first bytes, and the stream again with those bytes in front. */
export async function sniffStream(
  body: AsyncIterable<Uint8Array>,
): Promise<{ recordType: RecordType; body: AsyncIterable<Uint8Array> }> {
  const iterator = body[Symbol.asyncIterator]();
  const first = await iterator.next();
  const head = first.done ? new Uint8Array(0) : first.value;
  async function* rest(): AsyncGenerator<Uint8Array> {
    if (!first.done) yield head;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  return { recordType: sniffRecordType(head), body: rest() };
}
