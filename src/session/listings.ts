/**
 * The Session's listings: every page of the service's blob and job lists where it
 * declares them, else what this session and its journal know.
 */
import { blobRecord, type BlobRecord } from "../core/contract/blob.js";
import type { BlobListOptions, JobListOptions } from "../core/contract/listing.js";
import type { CallOptions } from "../client/transport.js";
import { Blob } from "./blob.js";
import type { Job } from "./job/job.js";
import { journaledJob, resolveJobId } from "./job/lookup.js";
import type { SessionContext } from "./session-context.js";
import type { SessionReach } from "./session-reach.js";

/** The largest page asked for. */
const PAGE_LIMIT = 1000;

interface Page<T> {
  readonly items: readonly T[];
  readonly next_cursor?: string | null | undefined;
}

/** Every page from `cursor` on, newest first as the service lists them, or the first `limit` items. */
export async function allPages<T>(
  list: (page: { cursor: string | undefined; limit: number }) => Promise<Page<T>>,
  options: { readonly cursor?: string | undefined; readonly limit?: number | undefined },
): Promise<T[]> {
  const { limit } = options;
  const out: T[] = [];
  let cursor = options.cursor;
  do {
    const page = await list({
      cursor,
      limit: limit === undefined ? PAGE_LIMIT : Math.min(PAGE_LIMIT, limit - out.length),
    });
    out.push(...page.items);
    cursor = page.next_cursor ?? undefined;
  } while (cursor && (limit === undefined || out.length < limit));
  return out;
}

/** Blobs made in this session and, from the journal, earlier ones: oldest first, deleted ones left out. */
export function knownBlobs(ctx: SessionContext<SessionReach>): Blob[] {
  const { ownBlobs, journal, earlierBlobs } = ctx.session;
  const own = ownBlobs.filter((b) => !b.deleted);
  const ownIds = new Set(ownBlobs.map((b) => b.id));
  const earlier = (journal?.blobs() ?? [])
    .filter((r) => !ownIds.has(r.id))
    .reverse()
    .map((entry) => {
      let blob = earlierBlobs.get(entry.id);
      if (blob === undefined) {
        blob = new Blob(ctx, blobRecord.parse(entry));
        earlierBlobs.set(entry.id, blob);
      }
      return blob;
    })
    .filter((b) => !b.deleted);
  return [...earlier, ...own];
}

/** The records of `knownBlobs`, newest first, filtered as the service's list filters (`name`, `tag` exactly). */
export function knownBlobRecords(ctx: SessionContext<SessionReach>, options: BlobListOptions): BlobRecord[] {
  return knownBlobs(ctx)
    .map((b) => b.record)
    .filter(
      (r) =>
        (options.name === undefined || r.name === options.name) &&
        (options.tag === undefined || r.tags.includes(options.tag)),
    )
    .reverse()
    .slice(0, options.limit);
}

/**
 * The jobs this session sent and, from the journal, those earlier sessions sent, newest
 * first, each with its status read once; `status` filters exactly.
 */
export async function knownJobs(
  ctx: SessionContext<SessionReach>,
  options: JobListOptions & CallOptions,
): Promise<Job[]> {
  const { ownJobs, journal } = ctx.session;
  const own = [...ownJobs].reverse();
  const ownIds = new Set(own.map((j) => j.id));
  // Without a status filter, only the jobs within `limit` need their status read.
  const wanted = options.status === undefined && options.limit !== undefined ? options.limit - own.length : undefined;
  const earlier = (journal?.jobs() ?? [])
    .filter((entry) => !ownIds.has(entry.id))
    .slice(0, wanted === undefined ? undefined : Math.max(0, wanted))
    .map((entry) => journaledJob(ctx, entry.id, entry));
  const { signal, timeoutMs } = options;
  // Earlier jobs' status is read once; one the service no longer knows keeps no record. This
  // session's jobs not seen to end are read again: the record of their send is not their status now.
  const unended = own.filter((job) => !(job.record && ctx.statuses.isTerminal(job.record.status)));
  await Promise.all([...unended, ...earlier].map((job) => job.status({ signal, timeoutMs }).catch(() => undefined)));
  const jobs = [...own, ...earlier].filter(
    (job) => options.status === undefined || job.record?.status === options.status,
  );
  return jobs.slice(0, options.limit);
}

/** A handle on a job by id or by a unique prefix of one this session sent or its journal remembers. */
export function knownJob(ctx: SessionContext<SessionReach>, idOrPrefix: string): Job {
  const journaled = ctx.session.journal?.jobs() ?? [];
  const id = resolveJobId(idOrPrefix, [...ctx.session.ownJobs, ...journaled]);
  return journaledJob(
    ctx,
    id,
    journaled.find((j) => j.id === id),
  );
}
