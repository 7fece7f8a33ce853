import { createReadStream } from "node:fs";
import type {
  FittedStateJson,
  JobWarning,
  RecordType,
  ReferenceJobResult as JobResult,
} from "../../core/contract/index.js";
import { isRecordType } from "../../core/formats/registry.js";
import type { Table } from "../../core/formats/table.js";
import type { Store } from "../http/plugins/store.js";
import type { BlobRow } from "../domain/blobs.js";

/** Largest blob the portal decodes for a preview or a chart; bigger ones are only downloaded. */
export const PREVIEW_MAX_BYTES = 32 * 1024 * 1024;

/** Why a blob cannot be read as a table here, or undefined when it can. */
export function unreadable(row: BlobRow): string | undefined {
  if (row.encrypted) return "It is encrypted: download it and decrypt it with its key.";
  if (!isRecordType(row.record_type)) return `Its record type (${row.record_type}) has no preview here: download it.`;
  if (row.size_bytes > PREVIEW_MAX_BYTES) return "It is too large for a preview here: download it.";
  return undefined;
}

/** Decodes a (small, unencrypted) blob of a model into a table. */
export async function readBlobTable(store: Store, row: BlobRow): Promise<Table> {
  // Apache Arrow and Parquet load with the first preview, not with the service.
  const { readTable } = await import("../../core/formats/index.js");
  return readTable(
    row.record_type as RecordType,
    createReadStream(store.files.path(row.id, row.revision)) as AsyncIterable<Uint8Array>,
  );
}

/** The stored result of a job (the reference service keeps the whole JobResult as JSON). */
export function storedResult(
  text: string | null,
): (JobResult & { fitted?: FittedStateJson; warnings?: JobWarning[] }) | undefined {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as JobResult;
  } catch {
    return undefined;
  }
}
