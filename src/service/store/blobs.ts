import type { BlobRecord } from "../../contract/index.js";
import { blobFileName, isSafeBlobFile, parseBlobFileName } from "../blob-files.js";
import { prepared, type Db } from "./database.js";

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

/** Blob metadata rows. Callers wrap multi-step changes in `db.transaction`. */
export class BlobStore {
  constructor(private readonly db: Db) {}

  /** A blob of this model, or undefined (another model's blob is as absent as a missing one). */
  get(modelId: string, id: string): BlobRow | undefined {
    const row = prepared(this.db, "SELECT * FROM blobs WHERE id = ? AND model_id = ?").get(id, modelId) as
      StoredBlobRow | undefined;
    return row && blobFromRow(row);
  }

  insert(id: string, modelId: string, revision: number, content: BlobContent, now: string): BlobRow {
    prepared(
      this.db,
      `INSERT INTO blobs (id, model_id, revision, name, description, record_type, access_tier, tags,
           content_type, size_bytes, sha256, encrypted, created_at, updated_at)
         VALUES (@id, @model_id, @revision, @name, @description, @record_type, @access_tier, @tags,
           @content_type, @size_bytes, @sha256, @encrypted, @now, @now)`,
    ).run({
      ...content,
      id,
      model_id: modelId,
      revision,
      tags: JSON.stringify(content.tags),
      encrypted: content.encrypted ? 1 : 0,
      now,
    });
    return this.get(modelId, id)!;
  }

  /**
   * The next revision of `row`, if `row` is still the current one (another process may
   * have updated the blob meanwhile); undefined otherwise.
   */
  replace(row: BlobRow, content: BlobContent, now: string): BlobRow | undefined {
    const changed = prepared(
      this.db,
      `UPDATE blobs SET revision = @revision, name = @name, description = @description, record_type = @record_type,
           access_tier = @access_tier, tags = @tags, content_type = @content_type, size_bytes = @size_bytes,
           sha256 = @sha256, encrypted = @encrypted, updated_at = @now
         WHERE id = @id AND revision = @previous`,
    ).run({
      ...content,
      id: row.id,
      revision: row.revision + 1,
      previous: row.revision,
      tags: JSON.stringify(content.tags),
      encrypted: content.encrypted ? 1 : 0,
      now,
    }).changes;
    return changed === 1 ? this.get(row.model_id, row.id) : undefined;
  }

  delete(row: BlobRow): void {
    prepared(this.db, "DELETE FROM blobs WHERE id = ?").run(row.id);
  }

  /** Whether a committed blob's file is named `fileName` (`<id>.<revision>`): asked file by file, at the moment of removal. */
  isReferenced(fileName: string): boolean {
    const file = parseBlobFileName(fileName);
    if (!file) return false;
    return (
      prepared(this.db, "SELECT 1 FROM blobs WHERE id = ? AND revision = ?").get(file.id, file.revision) !== undefined
    );
  }

  /** What `mdps admin verify` checks of every blob, in id order. */
  everyFile(): BlobFileRow[] {
    return prepared(
      this.db,
      "SELECT id, model_id, name, revision, size_bytes, sha256 FROM blobs ORDER BY id",
    ).all() as BlobFileRow[];
  }

  /** A blob's current revision, or undefined once it is deleted. */
  revision(id: string): number | undefined {
    const row = prepared(this.db, "SELECT revision FROM blobs WHERE id = ?").get(id) as
      { revision: number } | undefined;
    return row?.revision;
  }

  /** File names (`<id>.<revision>`) of every committed blob, for orphan removal. */
  referencedFiles(): Set<string> {
    const rows = prepared(this.db, "SELECT id, revision FROM blobs").all() as Array<{ id: string; revision: number }>;
    // A row whose id is no UUID names no file this service wrote (see blobFileName).
    return new Set(rows.filter((r) => isSafeBlobFile(r.id, r.revision)).map((r) => blobFileName(r.id, r.revision)));
  }
}
