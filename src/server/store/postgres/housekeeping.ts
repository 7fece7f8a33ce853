/**
 * What the database holds, and the removal of old blobs and finished jobs, as
 * ../sqlite/housekeeping.ts does it: a blob a queued or running job reads is never removed,
 * since the check and the removal are one transaction that locks the unfinished jobs.
 */
import { TERMINAL_JOB_STATUSES } from "../../../core/contract/job-status.js";
import type { PrunedBlob, PruneQuery, PruneRows, StoreUsage } from "../../domain/housekeeping.js";
import type { PgDb, SqlParam } from "./connection.js";
import { hasTag } from "./listing.js";

const FINISHED = `(${TERMINAL_JOB_STATUSES.map((s) => `'${s}'`).join(", ")})`;

/** The inputs of unfinished jobs: the blobs prune must keep. `request` is JSON text, as in SQLite. */
const PINNED = `SELECT request::jsonb ->> 'input_blob_id' FROM jobs
  WHERE status NOT IN ${FINISHED} AND request::jsonb ->> 'input_blob_id' IS NOT NULL`;

export async function pgStoreUsage(db: PgDb, tag?: string): Promise<StoreUsage> {
  // SUM of BIGINT is NUMERIC (a string to the driver): cast back, sizes stay far below 2^63.
  const blobs = (await db.one<{ n: number; bytes: number }>(
    "SELECT COUNT(*) AS n, COALESCE(SUM(size_bytes), 0)::bigint AS bytes FROM blobs",
  ))!;
  const byStatus = await db.rows<{ status: string; n: number }>(
    `SELECT status, COUNT(*) AS n FROM jobs GROUP BY status ORDER BY status COLLATE "C"`,
  );
  const tagged =
    tag === undefined
      ? undefined
      : await db.one<{ n: number; bytes: number }>(
          `SELECT COUNT(*) AS n, COALESCE(SUM(size_bytes), 0)::bigint AS bytes FROM blobs WHERE ${hasTag("$1")}`,
          [tag],
        );
  return {
    blobs: blobs.n,
    blobBytes: blobs.bytes,
    jobs: byStatus.reduce((sum, s) => sum + s.n, 0),
    jobsByStatus: Object.fromEntries(byStatus.map((s) => [s.status, s.n])),
    tagged: tagged === undefined || tag === undefined ? null : { tag, blobs: tagged.n, bytes: tagged.bytes },
  };
}

/**
 * Removes (or, dry, lists) the rows of blobs last updated before `before` that no
 * unfinished job reads, and of jobs that finished before it (with their events and logs).
 * The jobs table is locked against writes first: a job submitted meanwhile on another
 * replica either committed before (and pins its input) or waits the moment prune takes,
 * so prune never removes the input of a job that exists once it returns.
 */
export async function pgPruneRows(db: PgDb, query: PruneQuery): Promise<PruneRows> {
  return db.transaction(async () => {
    await db.run(`LOCK TABLE jobs IN SHARE ROW EXCLUSIVE MODE`);
    const params: SqlParam[] = query.tag === undefined ? [query.before] : [query.before, query.tag];
    const old = `updated_at < $1${query.tag === undefined ? "" : ` AND ${hasTag("$2")}`}`;
    const blobs = await db.rows<PrunedBlob>(
      `SELECT id, revision, name, size_bytes FROM blobs WHERE ${old} AND id NOT IN (${PINNED})`,
      params,
    );
    const pinned = (await db.one<{ n: number }>(
      `SELECT COUNT(*) AS n FROM blobs WHERE ${old} AND id IN (${PINNED})`,
      params,
    ))!.n;
    const jobsWhere = `status IN ${FINISHED} AND finished_at IS NOT NULL AND finished_at < $1`;
    let jobs = 0;
    if (query.tag === undefined) {
      jobs = (await db.one<{ n: number }>(`SELECT COUNT(*) AS n FROM jobs WHERE ${jobsWhere}`, [query.before]))!.n;
    }
    if (!query.dryRun) {
      for (const b of blobs) await db.run("DELETE FROM blobs WHERE id = $1 AND revision = $2", [b.id, b.revision]);
      if (query.tag === undefined) await db.run(`DELETE FROM jobs WHERE ${jobsWhere}`, [query.before]);
    }
    return { blobs, pinned, jobs };
  });
}
