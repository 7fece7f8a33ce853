/**
 * Outputs a service compressed (`application/gzip`, a `.csv.gz` name): read by their magic
 * bytes, which every gzip stream starts with whatever its headers say, and decompressed
 * with node:zlib before the format is decoded or sniffed.
 */
import { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import type { RecordType } from "../core/contract/blob.js";
import { FormatError } from "../core/formats/format-error.js";
import { formatOf } from "../core/formats/registry.js";
import type { Table } from "../core/formats/table.js";
import { decodeTable, sniffStream, type DecodeOptions } from "./table-io.js";

const GZIP_MAGIC = [0x1f, 0x8b] as const;

export interface DecodedBody {
  readonly body: AsyncIterable<Uint8Array>;
  /** `gzip` when the bytes were compressed; undefined when they are as stored. */
  readonly encoding: "gzip" | undefined;
  /** The first bytes as stored (before decompressing), for an error that names what it saw. */
  readonly head: Uint8Array;
}

/** The stream decompressed when it starts with gzip's magic bytes, else as it is. */
export async function decompressed(body: AsyncIterable<Uint8Array>): Promise<DecodedBody> {
  const iterator = body[Symbol.asyncIterator]();
  const chunks: Uint8Array[] = [];
  let size = 0;
  // Two bytes decide; a first chunk of one byte is rare but legal.
  while (size < GZIP_MAGIC.length) {
    const next = await iterator.next();
    if (next.done) break;
    chunks.push(next.value);
    size += next.value.byteLength;
  }
  const head = Buffer.concat(chunks);
  async function* again(): AsyncGenerator<Uint8Array> {
    if (head.byteLength > 0) yield head;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  const gzip = head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
  if (!gzip) return { body: again(), encoding: undefined, head: head.subarray(0, 8) };
  return { body: Readable.from(again()).pipe(createGunzip()), encoding: "gzip", head: head.subarray(0, 8) };
}

/** `1f 8b 08 00` for an error message: the bytes mdps saw. */
export function hexOf(bytes: Uint8Array): string {
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join(" ");
}

/**
 * A downloaded output as a Table: decompressed when gzip, decoded as `known` (the record's
 * type) or else as its first bytes say. A failure names what mdps saw, so "not valid
 * UTF-8" never hides a compressed or binary file.
 */
export async function readOutputTable(input: {
  readonly body: AsyncIterable<Uint8Array>;
  readonly known: RecordType | undefined;
  readonly options: DecodeOptions;
}): Promise<Table> {
  const decoded = await decompressed(input.body);
  const sniffed = await sniffStream(decoded.body);
  // A record that says csv over bytes that start with a format's magic (Arrow, Parquet): the bytes win.
  const magic = formatOf(sniffed.recordType).magic !== undefined;
  const recordType = magic ? sniffed.recordType : (input.known ?? sniffed.recordType);
  try {
    return await decodeTable(recordType, sniffed.body, input.options);
  } catch (error) {
    if (!(error instanceof FormatError)) throw error;
    const saw =
      `mdps read it as ${recordType}${input.known === undefined ? " (by its first bytes)" : ""}` +
      `${decoded.encoding ? ", after decompressing gzip" : ""}; its first bytes were ${hexOf(decoded.head)}`;
    throw new FormatError(`${error.message} (${saw})`, {
      column: error.column,
      row: error.row,
      value: error.value,
    });
  }
}
