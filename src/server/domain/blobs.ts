/** Blob metadata as the stores answer it, and as the API shows it. */
import type { BlobRecord } from "../../core/contract/index.js";

/** A blob's metadata as the store answers it. */
export interface BlobRow {
  id: string;
  model_id: string;
  revision: number;
  name: string;
  description: string | null;
  record_type: string;
  access_tier: string;
  tags: string[];
  content_type: string;
  size_bytes: number;
  sha256: string;
  encrypted: boolean;
  created_at: string;
  updated_at: string;
}

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
 * UPDATE are made from this list, so a new blob field is a line here and a column in
 * each store's migrations, not an edit of their statements. Its type refuses a field of
 * BlobContent left out (it would never be written).
 */
const CONTENT_FIELDS: { readonly [K in keyof BlobContent]: true } = {
  name: true,
  description: true,
  record_type: true,
  access_tier: true,
  tags: true,
  content_type: true,
  size_bytes: true,
  sha256: true,
  encrypted: true,
};
export const BLOB_CONTENT_COLUMNS = Object.keys(CONTENT_FIELDS) as ReadonlyArray<keyof BlobContent>;

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
  return {
    id: row.id,
    model_id: row.model_id,
    name: row.name,
    description: row.description,
    record_type: row.record_type,
    access_tier: row.access_tier,
    tags: [...row.tags],
    content_type: row.content_type,
    size_bytes: row.size_bytes,
    sha256: row.sha256,
    encrypted: row.encrypted,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export type BlobFileRow = Pick<BlobRow, "id" | "model_id" | "name" | "revision" | "size_bytes" | "sha256">;
