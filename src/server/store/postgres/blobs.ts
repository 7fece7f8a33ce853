import { blobFileName, isSafeBlobFile, parseBlobFileName } from "../../blob-bytes/blob-files.js";
import {
  BLOB_COLUMN_NAMES,
  BLOB_CONTENT_COLUMNS,
  blobFromRow,
  storedContent,
  type BlobContent,
  type BlobFileRow,
  type BlobRow,
  type StoredBlobRow,
} from "../../domain/blobs.js";
import type { PgDb, SqlParam } from "./connection.js";

/** Every column of a blob's record, as SQLite's `SELECT *` gives them (not the listing's `seq`). */
export const BLOB_COLUMNS = BLOB_COLUMN_NAMES.join(", ");

/** The content's values as $1..$n, in BLOB_CONTENT_COLUMNS' order; the statements number the rest after them. */
const N = BLOB_CONTENT_COLUMNS.length;
const CONTENT = BLOB_CONTENT_COLUMNS.join(", ");
const CONTENT_PARAMS = BLOB_CONTENT_COLUMNS.map((_, i) => `$${i + 1}`).join(", ");
const CONTENT_SET = BLOB_CONTENT_COLUMNS.map((c, i) => `${c} = $${i + 1}`).join(", ");

function contentParams(content: BlobContent): SqlParam[] {
  const stored = storedContent(content);
  return BLOB_CONTENT_COLUMNS.map((c) => stored[c]);
}

/** Blob metadata rows, as BlobStore (../sqlite/blobs.ts) keeps them. Callers wrap multi-step changes in a transaction. */
export class PgBlobStore {
  constructor(private readonly db: PgDb) {}

  /** A blob of this model, or undefined (another model's blob is as absent as a missing one). */
  async get(modelId: string, id: string): Promise<BlobRow | undefined> {
    const row = await this.db.one<StoredBlobRow>(`SELECT ${BLOB_COLUMNS} FROM blobs WHERE id = $1 AND model_id = $2`, [
      id,
      modelId,
    ]);
    return row && blobFromRow(row);
  }

  /** One statement, its row returned by it: no second round trip after the commit (see replace). */
  async insert(id: string, modelId: string, revision: number, content: BlobContent, now: string): Promise<BlobRow> {
    const row = await this.db.one<StoredBlobRow>(
      `INSERT INTO blobs (id, model_id, revision, ${CONTENT}, created_at, updated_at)
         VALUES ($${N + 1}, $${N + 2}, $${N + 3}, ${CONTENT_PARAMS}, $${N + 4}, $${N + 4})
         RETURNING ${BLOB_COLUMNS}`,
      [...contentParams(content), id, modelId, revision, now],
    );
    return blobFromRow(row!);
  }

  /**
   * The next revision of `row`, if `row` is still the current one (another replica may
   * have updated the blob meanwhile); undefined otherwise. One statement that returns the
   * new row: a commit followed by a read would leave a whole round trip in which the
   * connection could break after the commit, and the caller would not know it had one.
   */
  async replace(row: BlobRow, content: BlobContent, now: string): Promise<BlobRow | undefined> {
    const updated = await this.db.one<StoredBlobRow>(
      `UPDATE blobs SET revision = $${N + 1}, ${CONTENT_SET}, updated_at = $${N + 2}
         WHERE id = $${N + 3} AND revision = $${N + 4}
         RETURNING ${BLOB_COLUMNS}`,
      [...contentParams(content), row.revision + 1, now, row.id, row.revision],
    );
    return updated && blobFromRow(updated);
  }

  async delete(row: BlobRow): Promise<void> {
    await this.db.run("DELETE FROM blobs WHERE id = $1", [row.id]);
  }

  /** Whether a committed blob's file is named `fileName` (`<id>.<revision>`): asked file by file, at the moment of removal. */
  async isReferenced(fileName: string): Promise<boolean> {
    const file = parseBlobFileName(fileName);
    if (!file) return false;
    return (
      (await this.db.one("SELECT 1 FROM blobs WHERE id = $1 AND revision = $2", [file.id, file.revision])) !== undefined
    );
  }

  /** What `mdps admin verify` checks of every blob, in id order. */
  async everyFile(): Promise<BlobFileRow[]> {
    // COLLATE "C": byte order, as SQLite's BINARY sorts, whatever the database's locale.
    return this.db.rows<BlobFileRow>(
      `SELECT id, model_id, name, revision, size_bytes, sha256 FROM blobs ORDER BY id COLLATE "C"`,
    );
  }

  /** A blob's current revision, or undefined once it is deleted. */
  async revision(id: string): Promise<number | undefined> {
    return (await this.db.one<{ revision: number }>("SELECT revision FROM blobs WHERE id = $1", [id]))?.revision;
  }

  /** File names (`<id>.<revision>`) of every committed blob, for orphan removal. */
  async referencedFiles(): Promise<Set<string>> {
    const rows = await this.db.rows<{ id: string; revision: number }>("SELECT id, revision FROM blobs");
    // A row whose id is no UUID names no file this service wrote (see blobFileName).
    return new Set(rows.filter((r) => isSafeBlobFile(r.id, r.revision)).map((r) => blobFileName(r.id, r.revision)));
  }
}
