/** Blobs found damaged, as DamageStore (../sqlite/damage.ts) remembers them, on PostgreSQL. */
import { nowIso } from "../../domain/clock.js";
import type { DamagedBlob, DamageReport } from "../../domain/damage.js";
import type { PgDb } from "./connection.js";

export class PgDamageStore {
  constructor(private readonly db: PgDb) {}

  /** Bookkeeping: a failure to remember (the database unreachable) is not the caller's, so it never throws. */
  async record(damage: DamageReport): Promise<void> {
    // Inside a caller's transaction a failed statement would abort all of it (PostgreSQL
    // refuses every later statement of an aborted transaction): a savepoint confines it.
    const joined = this.db.inTransaction();
    try {
      if (joined) await this.db.run("SAVEPOINT damage_record");
      await this.db.relaxed(() =>
        this.db.run(
          `INSERT INTO damaged_blobs (blob_id, revision, reason, found_at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (blob_id, revision) DO UPDATE SET reason = EXCLUDED.reason, found_at = EXCLUDED.found_at`,
          [damage.blobId, damage.revision, damage.reason, nowIso()],
        ),
      );
      if (joined) await this.db.run("RELEASE SAVEPOINT damage_record");
    } catch {
      // The damage is still answered, only not remembered.
      if (joined) await this.db.run("ROLLBACK TO SAVEPOINT damage_record").catch(() => undefined);
    }
  }

  /** Damaged blobs whose current revision is the damaged one (an update or delete since ends it). */
  async list(): Promise<DamagedBlob[]> {
    return this.db.rows<DamagedBlob>(
      `SELECT d.blob_id, d.reason, d.found_at FROM damaged_blobs d JOIN blobs b ON b.id = d.blob_id AND b.revision = d.revision
         ORDER BY d.found_at`,
    );
  }

  /** Forgets a blob's damage once a check finds it whole (a file restored from a backup). */
  async clear(blobId: string, revision: number): Promise<void> {
    await this.db.run("DELETE FROM damaged_blobs WHERE blob_id = $1 AND revision = $2", [blobId, revision]);
  }
}
