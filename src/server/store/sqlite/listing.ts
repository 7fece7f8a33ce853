import type { BlobListQuery, JobListQuery, JobStatus } from "../../../core/contract/index.js";
import { z } from "zod";
import { blobListQuery, jobListQuery } from "../../../core/contract/index.js";
import { blobFromRow, type BlobRow, type StoredBlobRow } from "./blobs.js";
import type { Db } from "./database.js";
import type { SqlValue } from "./sqlite.js";
import type { JobRow } from "./jobs.js";

/**
 * The list endpoints (docs/contract.md#blob-metadata and #job-list): a model's
 * blobs or jobs, newest first, in pages. A cursor is the position of the last item of
 * the previous page (creation time and rowid, base64url JSON), so a page never repeats
 * or skips an item when others are added meanwhile. Items made in the same millisecond
 * come in the order they were inserted (rowid), newest first.
 */
export interface ListPosition {
  created_at: string;
  rowid: number;
}

const CURSOR_HELP = "must be the next_cursor of a previous page, unchanged (leave it out for the first page)";

export function encodeListCursor(position: ListPosition): string {
  return Buffer.from(JSON.stringify([position.created_at, position.rowid]), "utf8").toString("base64url");
}

export function decodeListCursor(cursor: string): ListPosition | undefined {
  if (!/^[A-Za-z0-9_-]{1,2048}$/.test(cursor)) return undefined;
  try {
    const value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown;
    if (!Array.isArray(value) || value.length !== 2) return undefined;
    const [createdAt, rowid] = value as unknown[];
    if (typeof createdAt !== "string" || !createdAt || !Number.isSafeInteger(rowid)) return undefined;
    return { created_at: createdAt, rowid: rowid as number };
  } catch {
    return undefined;
  }
}

/** A cursor on the wire, its position once parsed; anything else is a 400 naming `cursor`. */
const serviceCursor = z.string().transform((cursor, ctx) => {
  const position = decodeListCursor(cursor);
  if (!position) {
    ctx.addIssue({ code: "custom", message: CURSOR_HELP });
    return z.NEVER;
  }
  return position;
});

/** The blob list's query as the service parses it: the contract's, with the cursor decoded. */
export const blobListQuerystring = blobListQuery.extend({ cursor: serviceCursor.optional() });
/** The job list's query as the service parses it. */
export const jobListQuerystring = jobListQuery.extend({ cursor: serviceCursor.optional() });

export interface Page<Row> {
  rows: Row[];
  next_cursor: string | null;
}

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

type ParsedBlobQuery = Omit<BlobListQuery, "cursor"> & { cursor?: ListPosition | undefined };
type ParsedJobQuery = Omit<JobListQuery, "cursor"> & { cursor?: ListPosition | undefined };

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
