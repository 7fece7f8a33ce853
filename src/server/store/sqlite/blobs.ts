import { blobFileName, isSafeBlobFile, parseBlobFileName } from "../../blob-bytes/blob-files.js";
import { prepared, type Db } from "./database.js";
import {
  type BlobRow,
  type StoredBlobRow,
  BLOB_CONTENT_COLUMNS,
  blobFromRow,
  type BlobContent,
  type BlobFileRow,
  storedContent,
} from "../../domain/blobs.js";
import type { BlobRecords } from "../port.js";

const CONTENT = BLOB_CONTENT_COLUMNS.join(", ");
const CONTENT_PARAMS = BLOB_CONTENT_COLUMNS.map((c) => `@${c}`).join(", ");
const CONTENT_SET = BLOB_CONTENT_COLUMNS.map((c) => `${c} = @${c}`).join(", ");

/** Blob metadata rows. Callers wrap multi-step changes in `db.transaction`. */
export class BlobStore implements BlobRecords {
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
      `INSERT INTO blobs (id, model_id, revision, ${CONTENT}, created_at, updated_at)
         VALUES (@id, @model_id, @revision, ${CONTENT_PARAMS}, @now, @now)`,
    ).run({ ...storedContent(content), id, model_id: modelId, revision, now });
    return this.get(modelId, id)!;
  }

  /**
   * The next revision of `row`, if `row` is still the current one (another process may
   * have updated the blob meanwhile); undefined otherwise.
   */
  replace(row: BlobRow, content: BlobContent, now: string): BlobRow | undefined {
    const changed = prepared(
      this.db,
      `UPDATE blobs SET revision = @revision, ${CONTENT_SET}, updated_at = @now
         WHERE id = @id AND revision = @previous`,
    ).run({ ...storedContent(content), id: row.id, revision: row.revision + 1, previous: row.revision, now }).changes;
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
