import type { BlobStore } from "./blobs.js";
import { writeTransaction, type Db } from "./database.js";
import type { JobStore } from "./jobs.js";
import { type JobEnding, EndingRefused } from "../../domain/job-ending.js";

/**
 * Writes `ending` in one durable transaction: output blob rows, then the terminal state
 * (if the guard still allows it), then the reports. False, with nothing written, when
 * the guard refuses (the job ended, was cancelled, or another attempt holds it).
 */
export function endJob(db: Db, stores: { jobs: JobStore; blobs: BlobStore }, ending: JobEnding): boolean {
  const at = ending.at ?? new Date().toISOString();
  try {
    return writeTransaction(db, () => {
      for (const out of ending.outputs ?? []) stores.blobs.insert(out.id, out.modelId, 1, out.content, at);
      const outcome = { error: ending.error, result: ending.result, message: ending.message };
      if (!stores.jobs.finish(ending.jobId, ending.status, outcome, ending.guard)) throw new EndingRefused();
      if (ending.reports) stores.jobs.writeRunReports(ending.jobId, ending.reports.owner, ending.reports.entries);
      return true;
    });
  } catch (err) {
    if (err instanceof EndingRefused) return false;
    throw err;
  }
}
