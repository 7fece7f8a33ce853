/**
 * Blobs found damaged (their file is not the bytes their row names), remembered for health
 * and `mdps admin verify` until the blob changes or a check finds it whole again.
 */
import { prepared, relaxedWrite, type Db } from "./database.js";
import { nowIso } from "../../domain/clock.js";
import type { DamageReport, DamagedBlob } from "../../domain/damage.js";
import type { DamageRecords } from "../port.js";

export class DamageStore implements DamageRecords {
  constructor(private readonly db: Db) {}

  /** Bookkeeping: a failure to remember (a full or read-only disk) is not the caller's, so it never throws. */
  record(damage: DamageReport): void {
    try {
      relaxedWrite(this.db, () =>
        prepared(
          this.db,
          "INSERT OR REPLACE INTO damaged_blobs (blob_id, revision, reason, found_at) VALUES (?, ?, ?, ?)",
        ).run(damage.blobId, damage.revision, damage.reason, nowIso()),
      );
    } catch {
      // The damage is still answered, only not remembered.
    }
  }

  /** Damaged blobs whose current revision is the damaged one (an update or delete since ends it). */
  list(): DamagedBlob[] {
    return prepared(
      this.db,
      `SELECT d.blob_id, d.reason, d.found_at FROM damaged_blobs d JOIN blobs b ON b.id = d.blob_id AND b.revision = d.revision
         ORDER BY d.found_at`,
    ).all() as DamagedBlob[];
  }

  /** Forgets a blob's damage once a check finds it whole (a file restored from a backup). */
  clear(blobId: string, revision: number): void {
    prepared(this.db, "DELETE FROM damaged_blobs WHERE blob_id = ? AND revision = ?").run(blobId, revision);
  }
}
