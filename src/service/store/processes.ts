import { hostname } from "node:os";
import { nowIso, prepared, relaxedWrite, type Db } from "./database.js";

/** Who this service process is, as named in leases, logs and its temp folder. */
export interface ProcessIdentity {
  /** Unique per process start; safe as a folder name. */
  ownerId: string;
  hostname: string;
  processId: number;
}

/**
 * The service processes that share this store, each with a heartbeat. A process
 * counts as alive while its heartbeat is younger than `staleMs` and, when it runs on
 * this host, its pid still exists: that decides whether its in-memory keys still
 * exist, whether its temp folder may be swept and whether its jobs may be taken over
 * before their leases expire. (A reused pid only makes a dead process look alive
 * until its heartbeat is stale: the safe direction.)
 */
export class ProcessRegistry {
  constructor(private readonly db: Db) {}

  register(me: ProcessIdentity, now: number): void {
    prepared(
      this.db,
      "INSERT INTO service_processes (owner_id, hostname, process_id, started_at, heartbeat_at) VALUES (?, ?, ?, ?, ?)",
    ).run(me.ownerId, me.hostname, me.processId, nowIso(), now);
  }

  heartbeat(ownerId: string, now: number): void {
    // Bookkeeping: no fsync (a lost beat only makes this process look stale a little sooner).
    relaxedWrite(this.db, () =>
      prepared(this.db, "UPDATE service_processes SET heartbeat_at = ? WHERE owner_id = ?").run(now, ownerId),
    );
  }

  unregister(ownerId: string): void {
    prepared(this.db, "DELETE FROM service_processes WHERE owner_id = ?").run(ownerId);
  }

  /** Owner ids of the live processes, this one included. */
  alive(now: number, staleMs: number): Set<string> {
    const rows = prepared(
      this.db,
      "SELECT owner_id, hostname, process_id FROM service_processes WHERE heartbeat_at > ?",
    ).all(now - staleMs) as Array<{ owner_id: string; hostname: string; process_id: number }>;
    const host = hostname();
    return new Set(rows.filter((r) => r.hostname !== host || pidExists(r.process_id)).map((r) => r.owner_id));
  }

  /** Registered processes of this host whose pid is gone (killed, crashed): certainly dead, whatever their heartbeat. */
  deadOnThisHost(): string[] {
    const rows = prepared(this.db, "SELECT owner_id, process_id FROM service_processes WHERE hostname = ?").all(
      hostname(),
    ) as Array<{ owner_id: string; process_id: number }>;
    return rows.filter((r) => !pidExists(r.process_id)).map((r) => r.owner_id);
  }

  /** Forgets processes whose heartbeat stopped long ago (their leases expired with them). */
  forgetDead(now: number, olderThanMs: number): void {
    prepared(this.db, "DELETE FROM service_processes WHERE heartbeat_at < ?").run(now - olderThanMs);
  }
}

function pidExists(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
