import type { JobStatus } from "../../../core/contract/index.js";
import {
  encodeListCursor,
  type ListPosition,
  type Page,
  type ParsedBlobQuery,
  type ParsedJobQuery,
} from "../../domain/listing.js";
import { blobFromRow, type BlobRow, type StoredBlobRow } from "../../domain/blobs.js";
import type { Db } from "./database.js";
import type { SqlValue } from "./sqlite.js";
import type { JobRow } from "../../domain/job-rows.js";

/** The list endpoints on SQLite: a page is the rows after the cursor's (created_at, rowid). */
const AFTER = "(created_at < @after_created OR (created_at = @after_created AND rowid < @after_rowid))";

function page<Row extends { created_at: string }>(
  db: Db,
  table: "blobs" | "jobs",
  where: string[],
  params: Record<string, SqlValue>,
  limit: number,
  after: ListPosition | undefined,
): Page<Row> {
  const clauses = ["model_id = @model_id", ...where];
  const bound: Record<string, SqlValue> = { ...params, limit: limit + 1 };
  if (after) {
    clauses.push(AFTER);
    bound.after_created = after.created_at;
    bound.after_rowid = after.rowid;
  }
  const rows = db
    .prepare(
      `SELECT *, rowid AS list_rowid FROM ${table} WHERE ${clauses.join(" AND ")}
       ORDER BY created_at DESC, rowid DESC LIMIT @limit`,
    )
    .all(bound) as Array<Row & { list_rowid: number }>;
  const more = rows.length > limit;
  if (more) rows.length = limit;
  const last = rows[rows.length - 1];
  return {
    // The records are made field by field (toBlobRecord, jobFields): list_rowid stays here.
    rows,
    next_cursor: more && last ? encodeListCursor({ created_at: last.created_at, rowid: last.list_rowid }) : null,
  };
}

/** A page of a model's blobs, newest first; `tag` and `name` match exactly. */
export function listBlobs(db: Db, modelId: string, query: ParsedBlobQuery): Page<BlobRow> {
  const where: string[] = [];
  const params: Record<string, SqlValue> = { model_id: modelId };
  if (query.name !== undefined) {
    where.push("name = @name");
    params.name = query.name;
  }
  if (query.tag !== undefined) {
    where.push("EXISTS (SELECT 1 FROM json_each(blobs.tags) WHERE json_each.value = @tag)");
    params.tag = query.tag;
  }
  const stored = page<StoredBlobRow>(db, "blobs", where, params, query.limit, query.cursor);
  return { rows: stored.rows.map(blobFromRow), next_cursor: stored.next_cursor };
}

/** A page of a model's jobs, newest first, optionally of one status. */
export function listJobs(db: Db, modelId: string, query: ParsedJobQuery): Page<JobRow> {
  const where: string[] = [];
  const params: Record<string, SqlValue> = { model_id: modelId };
  if (query.status !== undefined) {
    where.push("status = @status");
    params.status = query.status satisfies JobStatus;
  }
  return page<JobRow>(db, "jobs", where, params, query.limit, query.cursor);
}
