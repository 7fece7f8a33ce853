import { z } from "zod";
import type { BlobListQuery, JobListQuery } from "../../core/contract/index.js";
import { blobListQuery, jobListQuery } from "../../core/contract/index.js";

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

/** A blob list's query once parsed: the cursor is a position. */
export type ParsedBlobQuery = Omit<BlobListQuery, "cursor"> & { cursor?: ListPosition | undefined };
/** A job list's query once parsed. */
export type ParsedJobQuery = Omit<JobListQuery, "cursor"> & { cursor?: ListPosition | undefined };
