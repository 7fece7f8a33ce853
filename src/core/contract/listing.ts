import { z } from "zod";
import { blobRecord } from "./blob.js";
import { jobRecord } from "./job.js";
import { JOB_STATUSES, type JobStatus } from "./job-status.js";

/**
 * The list endpoints of docs/contract.md#blob-metadata and #job-list: newest
 * first, a page of `limit` items and the opaque `next_cursor` of the next page (null
 * on the last one).
 */
export const LIST_LIMIT_DEFAULT = 100;
export const LIST_LIMIT_MAX = 1000;

export const listLimit = z.coerce
  .number({ error: `must be a whole number from 1 to ${LIST_LIMIT_MAX}` })
  .int(`must be a whole number from 1 to ${LIST_LIMIT_MAX}`)
  .min(1, `must be at least 1 (a page holds 1 to ${LIST_LIMIT_MAX} items)`)
  .max(LIST_LIMIT_MAX, `must be at most ${LIST_LIMIT_MAX}`)
  .default(LIST_LIMIT_DEFAULT);

/** The opaque `next_cursor` of a previous page; the service says when it is not one of its own. */
export const listCursor = z
  .string()
  .min(1, "must be the next_cursor of a previous page (leave it out for the first page)");

/** `status` of the job list: one of the job statuses, exactly. */
export const listJobStatus = z.enum(JOB_STATUSES, { error: `must be one of ${JOB_STATUSES.join(", ")}` });

export const blobListQuery = z.object({
  limit: listLimit,
  cursor: listCursor.optional(),
  tag: z.string().min(1, "must not be empty (leave it out to list every tag)").optional(),
  name: z.string().min(1, "must not be empty (leave it out to list every name)").optional(),
});
export type BlobListQuery = z.infer<typeof blobListQuery>;

export const jobListQuery = z.object({
  limit: listLimit,
  cursor: listCursor.optional(),
  status: listJobStatus.optional(),
});
export type JobListQuery = z.infer<typeof jobListQuery>;

/** A page of the blob list as the client reads it. */
export const blobList = z.looseObject({
  items: z.array(blobRecord),
  next_cursor: z.string().nullable().optional(),
});
export type BlobList = z.infer<typeof blobList>;

/** A page of the job list as the client reads it; the items carry no `events`. */
export const jobList = z.looseObject({
  items: z.array(jobRecord),
  next_cursor: z.string().nullable().optional(),
});
export type JobList = z.infer<typeof jobList>;

/** What a caller may ask of the job list. */
export interface JobListOptions {
  limit?: number;
  cursor?: string;
  status?: JobStatus;
}

/** What a caller may ask of the blob list. */
export interface BlobListOptions {
  limit?: number;
  cursor?: string;
  tag?: string;
  name?: string;
}
