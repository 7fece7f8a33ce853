/**
 * The PostgreSQL store as the service's store port (`Stores`, ../port.ts): the record
 * stores as they are, and the port's whole operations (a job's ending) as one transaction.
 */
import type { Stores } from "../port.js";
import { EndingRefused, type JobEnding } from "../../domain/job-ending.js";
import { openPgStores, type OpenPgStoresOptions, type PgStores } from "./index.js";

/** Opens (and migrates) the PostgreSQL store at `url` as a `Stores`. */
export async function openPgPort(options: OpenPgStoresOptions): Promise<Stores> {
  const pg = await openPgStores(options);
  return {
    apps: pg.apps,
    tokens: pg.tokens,
    blobs: pg.blobs,
    jobs: pg.jobs,
    processes: pg.processes,
    portal: pg.portal,
    damage: pg.damage,
    listings: pg.listings,
    onJobChange: (listener) => pg.jobs.onChange(listener),
    hearsOtherProcesses: true,
    endJob: (ending) => endJob(pg, ending),
    usage: (tag) => pg.usage(tag),
    prune: (query) => pg.prune(query),
    ping: () => pg.ping(),
    instanceSecret: () => pg.instanceSecret(),
    storeId: () => pg.storeId(),
    close: () => pg.close(),
  };
}

/** As the SQLite store's endJob (../sqlite/job-ending.ts): outputs, then the guarded ending, then the reports, or nothing. */
async function endJob(pg: PgStores, ending: JobEnding): Promise<boolean> {
  const at = ending.at ?? new Date().toISOString();
  try {
    return await pg.transaction(async () => {
      for (const out of ending.outputs ?? []) await pg.blobs.insert(out.id, out.modelId, 1, out.content, at);
      const outcome = { error: ending.error, result: ending.result, message: ending.message };
      if (!(await pg.jobs.finish(ending.jobId, ending.status, outcome, ending.guard))) throw new EndingRefused();
      if (ending.reports) await pg.jobs.writeRunReports(ending.jobId, ending.reports.owner, ending.reports.entries);
      return true;
    });
  } catch (err) {
    if (err instanceof EndingRefused) return false;
    throw err;
  }
}
