/**
 * The list endpoints' pages (see ../../domain/listing.ts) on PostgreSQL: newest first, with the
 * same cursors, whose position's `rowid` is the `seq` identity column here.
 */
import type { JobStatus } from "../../../core/contract/index.js";
import { blobFromRow, type BlobRow, type StoredBlobRow } from "../../domain/blobs.js";
import type { JobRow } from "../../domain/job-rows.js";
import { encodeListCursor, type Page, type ParsedBlobQuery, type ParsedJobQuery } from "../../domain/listing.js";
import { BLOB_COLUMNS } from "./blobs.js";
import type { PgDb, SqlParam } from "./connection.js";
import { JOB_COLUMNS } from "./jobs.js";

/** `tags` holds a JSON array of strings; this matches one exactly (`$n` is the tag's parameter). */
export const hasTag = (param: string) => `tags::jsonb @> jsonb_build_array(${param}::text)`;

async function page<Row extends { created_at: string }>(
  db: PgDb,
  list: {
    table: "blobs" | "jobs";
    columns: string;
    where: string[];
    params: SqlParam[];
    limit: number;
    after: ParsedJobQuery["cursor"];
  },
): Promise<Page<Row>> {
  const params = [...list.params];
  const clauses = [...list.where];
  if (list.after) {
    params.push(list.after.created_at, list.after.rowid);
    const [created, seq] = [`$${params.length - 1}`, `$${params.length}`];
    clauses.push(`(created_at < ${created} OR (created_at = ${created} AND seq < ${seq}))`);
  }
  params.push(list.limit + 1);
  // COLLATE "C": ISO times compare byte by byte, as SQLite compares text, whatever the locale.
  const rows = await db.rows<Row & { list_rowid: number }>(
    `SELECT ${list.columns}, seq AS list_rowid FROM ${list.table} WHERE ${clauses.join(" AND ")}
       ORDER BY created_at COLLATE "C" DESC, seq DESC LIMIT $${params.length}`,
    params,
  );
  const more = rows.length > list.limit;
  if (more) rows.length = list.limit;
  const last = rows[rows.length - 1];
  return {
    rows,
    next_cursor: more && last ? encodeListCursor({ created_at: last.created_at, rowid: last.list_rowid }) : null,
  };
}

/** A page of a model's blobs, newest first; `tag` and `name` match exactly. */
export async function pgListBlobs(db: PgDb, modelId: string, query: ParsedBlobQuery): Promise<Page<BlobRow>> {
  const where = ["model_id = $1"];
  const params: SqlParam[] = [modelId];
  if (query.name !== undefined) {
    params.push(query.name);
    where.push(`name = $${params.length}`);
  }
  if (query.tag !== undefined) {
    params.push(query.tag);
    where.push(hasTag(`$${params.length}`));
  }
  const stored = await page<StoredBlobRow>(db, {
    table: "blobs",
    columns: BLOB_COLUMNS,
    where,
    params,
    limit: query.limit,
    after: query.cursor,
  });
  return { rows: stored.rows.map(blobFromRow), next_cursor: stored.next_cursor };
}

/** A page of a model's jobs, newest first, optionally of one status. */
export async function pgListJobs(db: PgDb, modelId: string, query: ParsedJobQuery): Promise<Page<JobRow>> {
  const where = ["model_id = $1"];
  const params: SqlParam[] = [modelId];
  if (query.status !== undefined) {
    params.push(query.status satisfies JobStatus);
    where.push(`status = $${params.length}`);
  }
  return page<JobRow>(db, {
    table: "jobs",
    columns: JOB_COLUMNS,
    where,
    params,
    limit: query.limit,
    after: query.cursor,
  });
}
