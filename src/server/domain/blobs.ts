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
export interface BlobContent {
  name: string;
  description: string | null;
  record_type: string;
  access_tier: string;
  tags: string[];
  content_type: string;
  size_bytes: number;
  sha256: string;
  encrypted: boolean;
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
