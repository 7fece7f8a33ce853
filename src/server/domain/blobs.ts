/** Blob metadata as the stores answer it, and as the API shows it. */
import { BLOB_METADATA_FIELDS, type BlobRecord } from "../../core/contract/index.js";
import type { BlobMetadataRecord } from "../../core/contract/blob-fields.js";

/** The facts of a blob's bytes, beside the metadata a user sets (BLOB_METADATA_FIELDS). */
interface BlobBytesFacts {
  content_type: string;
  size_bytes: number;
  sha256: string;
  encrypted: boolean;
}

/** A blob's metadata as the store answers it. */
export type BlobRow = {
  id: string;
  model_id: string;
  revision: number;
} & BlobMetadataRecord &
  BlobBytesFacts & {
    created_at: string;
    updated_at: string;
  };

/** The columns as SQLite holds them: tags as JSON text, `encrypted` as 0 or 1. */
export type StoredBlobRow = Omit<BlobRow, "tags" | "encrypted"> & { tags: string; encrypted: number };

/** A stored row as a record (extra columns, such as a listing's rowid, stay with the caller). */
export function blobFromRow<Row extends StoredBlobRow>(row: Row): Omit<Row, "tags" | "encrypted"> & BlobRow {
  return { ...row, tags: JSON.parse(row.tags) as string[], encrypted: row.encrypted === 1 };
}

/** What upload, update and a job output write: metadata plus the facts of the bytes. */
export type BlobContent = Omit<BlobRow, "id" | "model_id" | "revision" | "created_at" | "updated_at">;

/**
 * The columns of BlobContent, in the order both stores write them: their INSERT and
 * UPDATE are made from this list, so a new blob field is its entry in BLOB_METADATA_FIELDS
 * and a column in each store's migrations, not an edit of their statements. Its type
 * refuses a fact of the bytes left out (it would never be written).
 */
const BYTES_FACTS: { readonly [K in keyof BlobBytesFacts]: true } = {
  content_type: true,
  size_bytes: true,
  sha256: true,
  encrypted: true,
};
export const BLOB_CONTENT_COLUMNS = [
  ...BLOB_METADATA_FIELDS.map((f) => f.record),
  ...Object.keys(BYTES_FACTS),
] as ReadonlyArray<keyof BlobContent>;

/** What upload, update and a job output write: the metadata, and the facts of the bytes stored. */
export function blobContent(options: {
  metadata: BlobMetadataRecord;
  encrypted: boolean;
  contentType: string;
  file: { readonly sizeBytes: number; readonly sha256: string };
}): BlobContent {
  return {
    ...options.metadata,
    content_type: options.contentType,
    size_bytes: options.file.sizeBytes,
    sha256: options.file.sha256,
    encrypted: options.encrypted,
  };
}

/** Every column of a blob's record, in its table's order (not the listing's `seq`). */
export const BLOB_COLUMN_NAMES: readonly string[] = [
  "id",
  "model_id",
  "revision",
  ...BLOB_CONTENT_COLUMNS,
  "created_at",
  "updated_at",
];

/** BlobContent as both stores keep it: tags as JSON text, `encrypted` as 0 or 1. */
export type StoredBlobContent = Omit<BlobContent, "tags" | "encrypted"> & { tags: string; encrypted: number };

export function storedContent(content: BlobContent): StoredBlobContent {
  return { ...content, tags: JSON.stringify(content.tags), encrypted: content.encrypted ? 1 : 0 };
}

export function toBlobRecord(row: BlobRow): BlobRecord {
  // Only the record's own columns (a listing's rowid stays behind), and a copy of the tags.
  const record = Object.fromEntries(
    ["id", "model_id", ...BLOB_CONTENT_COLUMNS, "created_at", "updated_at"].map((c) => [c, row[c as keyof BlobRow]]),
  ) as BlobRecord;
  return { ...record, tags: [...row.tags] };
}

export type BlobFileRow = Pick<BlobRow, "id" | "model_id" | "name" | "revision" | "size_bytes" | "sha256">;
