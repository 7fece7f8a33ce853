import { hostname } from "node:os";
import { prepared, tickWrite, type Db } from "./database.js";
import { nowIso } from "../../domain/clock.js";
import { acquireProcessLock, probeProcessLock, releaseProcessLock } from "./process-lock.js";
import type { ProcessIdentity } from "../../domain/processes.js";
import type { ProcessRecords } from "../port.js";

interface ProcessRow {
  owner_id: string;
  hostname: string;
  process_id: number;
  heartbeat_at: number;
}

/**
 * The service processes that share this store. On this host a process is alive exactly
 * while it holds its OS lock (process-lock.ts): a frozen process, or one whose clock
 * lags, is alive; a killed one is dead at once. A process of another host is alive
 * while its heartbeat is younger than `staleMs` (a lease: the best a shared disk
 * allows). Liveness decides whether a process's in-memory keys still exist, whether
 * its temp folder may be swept and whether its jobs may be taken over.
 */
export class ProcessRegistry implements ProcessRecords {
  private readonly host = hostname();
  /** Owners found dead: dead stays dead (owner ids are never reused). */
  private readonly dead = new Set<string>();

  constructor(
    private readonly db: Db,
    private readonly dataDir: string,
  ) {}

  /** Takes this process's lock, then announces it. */
  register(me: ProcessIdentity, now: number): void {
    acquireProcessLock(this.dataDir, me.ownerId, this.db.driver);
    prepared(
      this.db,
      "INSERT INTO service_processes (owner_id, hostname, process_id, started_at, heartbeat_at) VALUES (?, ?, ?, ?, ?)",
    ).run(me.ownerId, me.hostname, me.processId, nowIso(), now);
  }

  heartbeat(ownerId: string, now: number): void {
    // Bookkeeping: no fsync, no long wait (a lost beat only makes this process look stale a little sooner).
    tickWrite(this.db, () =>
      prepared(this.db, "UPDATE service_processes SET heartbeat_at = ? WHERE owner_id = ?").run(now, ownerId),
    );
  }

  /** At a clean stop: the row goes, then the lock. */
  unregister(ownerId: string): void {
    try {
      prepared(this.db, "DELETE FROM service_processes WHERE owner_id = ?").run(ownerId);
    } finally {
      releaseProcessLock(this.dataDir, ownerId);
    }
  }

  /**
   * Whether the process `ownerId` lives: by its lock on this host; by its heartbeat
   * for a process of another host (or of a version without locks, whose pid must
   * exist too). An owner without lock file and without row is dead.
   */
  isAlive(ownerId: string, now: number, staleMs: number): boolean {
    if (this.dead.has(ownerId)) return false;
    const lock = probeProcessLock(this.dataDir, ownerId, this.db.driver);
    if (lock === "alive") return true;
    if (lock === "unknown") {
      const row = prepared(
        this.db,
        "SELECT owner_id, hostname, process_id, heartbeat_at FROM service_processes WHERE owner_id = ?",
      ).get(ownerId) as ProcessRow | undefined;
      if (row && row.heartbeat_at > now - staleMs && (row.hostname !== this.host || pidExists(row.process_id)))
        return true;
      if (row && row.hostname !== this.host) return false; // stale, but may come back: not certain
    }
    this.dead.add(ownerId);
    return false;
  }

  /**
   * Whether the process `ownerId` lives by its lock alone: as isAlive, which on this host
   * already asks only the lock (a process of another host has none to ask: its heartbeat).
   * The same question as PgProcessRegistry's, where isAlive also wants a fresh heartbeat.
   */
  livesByLock(ownerId: string, now: number, staleMs: number): boolean {
    return this.isAlive(ownerId, now, staleMs);
  }

  /**
   * Whether `ownerId` is a process of this host that still holds its lock: its jobs
   * are its own however late its leases look (its clock may lag, it may be frozen).
   */
  holdsLockHere(ownerId: string): boolean {
    if (this.dead.has(ownerId)) return false;
    const lock = probeProcessLock(this.dataDir, ownerId, this.db.driver);
    if (lock === "dead") this.dead.add(ownerId);
    return lock === "alive";
  }

  /** Owner ids of the live processes, this one included. */
  alive(now: number, staleMs: number): Set<string> {
    const rows = prepared(this.db, "SELECT owner_id FROM service_processes").all() as Array<{ owner_id: string }>;
    return new Set(rows.map((r) => r.owner_id).filter((id) => this.isAlive(id, now, staleMs)));
  }

  /** Registered processes of this host that are certainly dead (killed, crashed): their jobs need not wait for leases. */
  deadOnThisHost(): string[] {
    const rows = prepared(this.db, "SELECT owner_id, process_id FROM service_processes WHERE hostname = ?").all(
      this.host,
    ) as Array<{ owner_id: string; process_id: number }>;
    return rows
      .filter((r) => {
        if (this.dead.has(r.owner_id)) return true;
        const lock = probeProcessLock(this.dataDir, r.owner_id, this.db.driver);
        const dead = lock === "dead" || (lock === "unknown" && !pidExists(r.process_id));
        if (dead) this.dead.add(r.owner_id);
        return dead;
      })
      .map((r) => r.owner_id);
  }

  /** Forgets processes whose heartbeat stopped long ago and that are not alive (a frozen one keeps its row). */
  forgetDead(now: number, olderThanMs: number): void {
    const rows = prepared(this.db, "SELECT owner_id FROM service_processes WHERE heartbeat_at < ?").all(
      now - olderThanMs,
    ) as Array<{ owner_id: string }>;
    for (const { owner_id } of rows) {
      if (!this.isAlive(owner_id, now, olderThanMs))
        prepared(this.db, "DELETE FROM service_processes WHERE owner_id = ?").run(owner_id);
    }
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
