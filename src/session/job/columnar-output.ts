/**
 * A job output without a danfo DataFrame: as an Apache Arrow Table (columnar, a number
 * costs 8 bytes, outside the JavaScript heap) or written to a file in the format its
 * extension names. When the output is already in that format its bytes go to the file
 * as they arrive, never decoded.
 */
import { decompressed } from "../output-encoding.js";
import type { Table as ArrowTable } from "apache-arrow";
import type { CallOptions } from "../../client/transport.js";
import type { Blob } from "../blob.js";
import { extensionChoices } from "../../core/formats/registry.js";
import { validationBeforeSending } from "../validation-before-sending.js";
import { loadFormats, recordTypeOfPath, writeFileAtomically, type DecodeOptions } from "../table-io.js";

/** What `job.download(path)` wrote. */
export interface DownloadedFile {
  readonly path: string;
  /** The file's format, from its extension. */
  readonly recordType: string;
  readonly bytes: number;
  /** True when the output's bytes were written as they came (same format, nothing decoded). */
  readonly copied: boolean;
}

/** The blob's content as an Apache Arrow Table: Arrow bytes are read as they are, other formats converted. */
export async function arrowTableOf(blob: Blob, options: CallOptions & DecodeOptions = {}): Promise<ArrowTable> {
  const { tableFromIpcKeepingNames, writeArrow } = await import("../../core/formats/arrow.js");
  if (blob.recordType === "arrow") {
    const bytes = await blob.bytes(options);
    return tableFromIpcKeepingNames(bytes);
  }
  const table = await blob.table(options);
  const chunks: Uint8Array[] = [];
  for await (const chunk of writeArrow(table)) chunks.push(chunk);
  return tableFromIpcKeepingNames(chunks);
}

/**
 * Writes the blob's content to `path` in the format of its extension (as the format
 * registry reads endings: docs/formats.md), through a temporary file renamed into place.
 */
export async function writeBlobFile(
  blob: Blob,
  path: string,
  options: CallOptions & DecodeOptions = {},
): Promise<DownloadedFile> {
  const recordType = recordTypeOfPath(path);
  if (recordType === undefined) {
    throw validationBeforeSending({
      path: [`cannot tell the format to write from the extension of ${path}: use ${extensionChoices({ all: true })}`],
    });
  }
  if (blob.recordType === recordType) {
    // A compressed output (gzip) is written as the format the extension names, not as stored.
    const bytes = await writeFileAtomically(path, (await decompressed(await blob.stream(options))).body);
    return { path, recordType, bytes, copied: true };
  }
  const [table, { writeTable }] = await Promise.all([blob.table(options), loadFormats()]);
  const bytes = await writeFileAtomically(path, writeTable(recordType, table));
  return { path, recordType, bytes, copied: false };
}
