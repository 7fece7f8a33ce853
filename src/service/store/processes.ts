import { nowIso, type Db } from "./database.js";

/** Who this service process is, as named in leases, logs and its temp folder. */
export interface ProcessIdentity {
  /** Unique per process start; safe as a folder name. */
  ownerId: string;
  hostname: string;
  processId: number;
}

/**
 * The service processes that share this store, each with a heartbeat. A process
 * counts as alive while its heartbeat is younger than `staleMs`: that decides
 * whether its in-memory keys still exist and whether its temp folder may be swept.
 */
export class ProcessRegistry {
  constructor(private readonly db: Db) {}

  register(me: ProcessIdentity, now: number): void {
    this.db
      .prepare(
        "INSERT INTO service_processes (owner_id, hostname, process_id, started_at, heartbeat_at) VALUES (?, ?, ?, ?, ?)",
      )
      .run(me.ownerId, me.hostname, me.processId, nowIso(), now);
  }

  heartbeat(ownerId: string, now: number): void {
    this.db.prepare("UPDATE service_processes SET heartbeat_at = ? WHERE owner_id = ?").run(now, ownerId);
  }

  unregister(ownerId: string): void {
    this.db.prepare("DELETE FROM service_processes WHERE owner_id = ?").run(ownerId);
  }

  isAlive(ownerId: string, now: number, staleMs: number): boolean {
    const row = this.db.prepare("SELECT heartbeat_at FROM service_processes WHERE owner_id = ?").get(ownerId) as
      { heartbeat_at: number } | undefined;
    return row !== undefined && row.heartbeat_at > now - staleMs;
  }

  /** Owner ids of the live processes, this one included. */
  alive(now: number, staleMs: number): Set<string> {
    const rows = this.db
      .prepare("SELECT owner_id FROM service_processes WHERE heartbeat_at > ?")
      .all(now - staleMs) as Array<{ owner_id: string }>;
    return new Set(rows.map((r) => r.owner_id));
  }

  /** Forgets processes whose heartbeat stopped long ago (their leases expired with them). */
  forgetDead(now: number, olderThanMs: number): void {
    this.db.prepare("DELETE FROM service_processes WHERE heartbeat_at < ?").run(now - olderThanMs);
  }
}
