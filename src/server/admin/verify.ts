/**
 * `mdps admin verify`: every blob's file checked against its row (present, its size,
 * its sha256). Damaged ones are recorded, so health names them; one found whole again
 * (restored from a backup) is forgotten. Safe while services run on the data dir.
 */
import { join } from "node:path";
import { BlobDamagedError, verifyFile } from "../blob-bytes/blob-check.js";
import { blobFileName, isSafeBlobFile } from "../blob-bytes/blob-files.js";
import { chooseStore } from "../store/choice.js";
import { openChosenStores } from "../store/open.js";
import type { SqliteDriverName } from "../store/sqlite/sqlite.js";

export interface VerifyReport {
  dataDir: string;
  checked: number;
  bytes: number;
  damaged: Array<{ id: string; model_id: string; name: string; reason: string }>;
}

export async function verifyDataDir(
  dataDir: string,
  options: {
    sqliteDriver?: SqliteDriverName;
    /** The replicas' PostgreSQL database (postgres://...), whose blob files are in `dataDir`; default the data dir's SQLite. */
    store?: string | undefined;
  } = {},
): Promise<VerifyReport> {
  const choice = chooseStore({ store: options.store, sqliteDriver: options.sqliteDriver });
  const store = await openChosenStores({ choice, dataDir, region: "" });
  try {
    const rows = await store.blobs.everyFile();
    const report: VerifyReport = { dataDir, checked: 0, bytes: 0, damaged: [] };
    for (const row of rows) {
      if (!isSafeBlobFile(row.id, row.revision)) {
        // Never a path: such a record was not written by this service.
        report.damaged.push({ id: row.id, model_id: row.model_id, name: row.name, reason: "its id is not a UUID" });
        report.checked += 1;
        continue;
      }
      try {
        await verifyFile(join(dataDir, "blobs", blobFileName(row.id, row.revision)), row);
        await store.damage.clear(row.id, row.revision);
        report.bytes += row.size_bytes;
      } catch (err) {
        if (!(err instanceof BlobDamagedError)) throw err;
        // Updated or deleted meanwhile by a running service: not damage.
        if ((await store.blobs.revision(row.id)) !== row.revision) continue;
        await store.damage.record(err);
        report.damaged.push({ id: row.id, model_id: row.model_id, name: row.name, reason: err.reason });
      }
      report.checked += 1;
    }
    return report;
  } finally {
    await store.close();
  }
}
