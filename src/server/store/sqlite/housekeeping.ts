/**
 * What a data dir holds, and the removal of old blobs and finished jobs. A blob that a
 * queued or running job reads (its `input_blob_id`) is never removed: the check and the
 * removal are one write transaction, so a job that exists when prune runs keeps its input.
 */
import { TERMINAL_JOB_STATUSES } from "../../../core/contract/job-status.js";
import { writeTransaction, type Db } from "./database.js";
import type { StoreUsage, PruneQuery, PrunedBlob, PruneRows } from "../../domain/housekeeping.js";

const FINISHED = `(${TERMINAL_JOB_STATUSES.map((s) => `'${s}'`).join(", ")})`;

/** The inputs of unfinished (queued or running) jobs: the blobs prune must keep. */
const PINNED = `SELECT json_extract(request, '$.input_blob_id') AS blob_id FROM jobs
  WHERE status NOT IN ${FINISHED} AND json_extract(request, '$.input_blob_id') IS NOT NULL`;

/** `tags` holds a JSON array of strings; this matches one exactly. */
const HAS_TAG = `EXISTS (SELECT 1 FROM json_each(blobs.tags) WHERE json_each.value = @tag)`;

export function storeUsage(db: Db, tag?: string): StoreUsage {
  const blobs = db.prepare("SELECT COUNT(*) AS n, COALESCE(SUM(size_bytes), 0) AS bytes FROM blobs").get() as {
    n: number;
    bytes: number;
  };
  const byStatus = db.prepare("SELECT status, COUNT(*) AS n FROM jobs GROUP BY status ORDER BY status").all() as Array<{
    status: string;
    n: number;
  }>;
  const tagged =
    tag === undefined
      ? null
      : (db
          .prepare(`SELECT COUNT(*) AS n, COALESCE(SUM(size_bytes), 0) AS bytes FROM blobs WHERE ${HAS_TAG}`)
          .get({ tag }) as { n: number; bytes: number });
  return {
    blobs: blobs.n,
    blobBytes: blobs.bytes,
    jobs: byStatus.reduce((sum, s) => sum + s.n, 0),
    jobsByStatus: Object.fromEntries(byStatus.map((s) => [s.status, s.n])),
    tagged: tagged === null || tag === undefined ? null : { tag, blobs: tagged.n, bytes: tagged.bytes },
  };
}

/**
 * Removes (or, dry, lists) the rows of blobs last updated before `before` that no
 * unfinished job reads, and of jobs that finished before it (with their events and
 * logs). The caller deletes the removed blobs' files after this returns.
 */
export function pruneRows(db: Db, query: PruneQuery): PruneRows {
  return writeTransaction(db, () => {
    // Only the names the SQL uses: node:sqlite before Node 22.15 refuses any other.
    const params = query.tag === undefined ? { before: query.before } : { before: query.before, tag: query.tag };
    const tagged = query.tag === undefined ? "" : `AND ${HAS_TAG}`;
    const old = `updated_at < @before ${tagged}`;
    const blobs = db
      .prepare(`SELECT id, revision, name, size_bytes FROM blobs WHERE ${old} AND id NOT IN (${PINNED})`)
      .all(params) as PrunedBlob[];
    const pinned = (
      db.prepare(`SELECT COUNT(*) AS n FROM blobs WHERE ${old} AND id IN (${PINNED})`).get(params) as { n: number }
    ).n;
    const jobsWhere = `status IN ${FINISHED} AND finished_at IS NOT NULL AND finished_at < @before`;
    let jobs = 0;
    if (query.tag === undefined) {
      jobs = (db.prepare(`SELECT COUNT(*) AS n FROM jobs WHERE ${jobsWhere}`).get(params) as { n: number }).n;
    }
    if (!query.dryRun) {
      const remove = db.prepare("DELETE FROM blobs WHERE id = ? AND revision = ?");
      for (const b of blobs) remove.run(b.id, b.revision);
      if (query.tag === undefined) db.prepare(`DELETE FROM jobs WHERE ${jobsWhere}`).run(params);
    }
    return { blobs, pinned, jobs };
  });
}
