import { createHash } from "node:crypto";
import { hostname } from "node:os";
import type pg from "pg";
import { nowIso } from "../../domain/clock.js";
import type { ProcessIdentity } from "../../domain/processes.js";
import { DB_NOW_MS, msFromNow, type PgDb } from "./connection.js";

/**
 * The two 31-bit keys of an owner's session lock (pg_advisory_lock(int, int), a key space
 * apart from the migration lock's single bigint). A clash of two owners' keys needs a
 * sha256 collision on 62 bits: not a concern for the few processes of one service.
 */
function lockKeys(ownerId: string): [number, number] {
  const digest = createHash("sha256").update(ownerId).digest();
  return [digest.readUInt32BE(0) & 0x7fffffff, digest.readUInt32BE(4) & 0x7fffffff];
}

/** How often a replica whose lock's session ended tries to take it again. */
const RELOCK_MS = 1000;
/**
 * How long a lock must stay missing before its process counts as dead: a server restart
 * ends every replica's session at once, and each takes its lock again within RELOCK_MS
 * of the server's return. Without this grace each would see the others dead meanwhile
 * and take their running jobs over, back and forth, until the jobs ran out of attempts.
 */
const DEAD_AFTER_MS = 5 * RELOCK_MS;

const LOCK_HELD = `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 2
  AND classid::bigint = $1 AND objid::bigint = $2
  AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`;

/**
 * The service processes that share this database, as ProcessRegistry (../sqlite/processes.ts)
 * tracks them. The SQLite store's liveness signal is a kernel file lock on the data dir;
 * here it is a session-level advisory lock that each process holds on a connection of its
 * own for its whole life. PostgreSQL drops it when that session ends (the process exits or
 * is killed, and the kernel closes its socket), so a missing lock is certain death. A held
 * lock is alive while the heartbeat is fresh; a held lock with a stale heartbeat (a frozen
 * process, or a dead host whose socket the server has not yet timed out) is not alive but
 * not certainly dead either, as a stale process of another host is for the SQLite store.
 */
export class PgProcessRegistry {
  private readonly host = hostname();
  /** Owners whose lock is being taken again after its session ended. */
  private readonly relocking = new Set<string>();
  /** When each owner's lock was first seen missing (cleared once it is seen held again). */
  private readonly missingSince = new Map<string, number>();
  /** The lock connections of the processes registered from here. */
  private readonly held = new Map<string, pg.Client>();
  private readonly lostListeners = new Set<(ownerId: string) => void>();

  constructor(private readonly db: PgDb) {}

  /**
   * Calls `listener` when the connection holding a registered process's lock ends without
   * `unregister` (the server restarted, or dropped the session). Other replicas then
   * count that process dead: they take its jobs over and fail those whose keys only it
   * holds, and the fence refuses its further writes, until the lock is taken again (the
   * registry retries every RELOCK_MS). A file lock cannot be lost this way, so the SQLite
   * store has no such event.
   */
  onLockLost(listener: (ownerId: string) => void): void {
    this.lostListeners.add(listener);
  }

  /** Takes this process's lock, then announces it. */
  async register(me: ProcessIdentity, now: number): Promise<void> {
    await this.takeLock(me);
    await this.db.run(
      `INSERT INTO service_processes (owner_id, hostname, process_id, started_at, heartbeat_at)
         VALUES ($1, $2, $3, $4, ${DB_NOW_MS} + $5::bigint)
         ON CONFLICT (owner_id) DO UPDATE SET heartbeat_at = EXCLUDED.heartbeat_at`,
      [me.ownerId, me.hostname, me.processId, nowIso(), msFromNow(now)],
    );
  }

  /**
   * Takes the lock of `me` on a connection of its own. When that connection ends without
   * `unregister` (the server restarted, or dropped the session), the listeners hear it and
   * the lock is taken again, every RELOCK_MS until the server answers: meanwhile the other
   * replicas count this process dead and take its jobs over (the fence refuses what it
   * then writes for them); once the lock is back it is alive to them again.
   */
  private async takeLock(me: ProcessIdentity): Promise<void> {
    const client = await this.db.dedicatedClient();
    try {
      const [a, b] = lockKeys(me.ownerId);
      const taken = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1, $2) AS ok", [a, b]);
      if (!taken.rows[0]?.ok) throw new Error(`the process lock of owner ${me.ownerId} is held by another session`);
    } catch (err) {
      await client.end().catch(() => undefined);
      throw this.db.fault(err);
    }
    this.held.set(me.ownerId, client);
    client.once("end", () => {
      if (this.held.get(me.ownerId) !== client) return; // unregistered: an ending we asked for
      this.held.delete(me.ownerId);
      for (const listener of this.lostListeners) listener(me.ownerId);
      this.relock(me);
    });
  }

  private relock(me: ProcessIdentity): void {
    this.relocking.add(me.ownerId);
    const retry = setTimeout(() => {
      if (!this.relocking.has(me.ownerId)) return; // unregistered or closed meanwhile
      // The row too: another replica may have forgotten it meanwhile.
      this.register(me, Date.now()).then(
        () => this.relocking.delete(me.ownerId),
        () => this.relock(me),
      );
    }, RELOCK_MS);
    retry.unref();
  }

  async heartbeat(ownerId: string, now: number): Promise<void> {
    // Bookkeeping: no flush wait, no long lock wait (a lost beat only makes this process look stale a little sooner).
    await this.db.tick(() =>
      this.db.run(`UPDATE service_processes SET heartbeat_at = ${DB_NOW_MS} + $1::bigint WHERE owner_id = $2`, [
        msFromNow(now),
        ownerId,
      ]),
    );
  }

  /** At a clean stop: the row goes, then the lock (its connection closes). */
  async unregister(ownerId: string): Promise<void> {
    this.relocking.delete(ownerId);
    try {
      await this.db.run("DELETE FROM service_processes WHERE owner_id = $1", [ownerId]);
    } finally {
      const client = this.held.get(ownerId);
      this.held.delete(ownerId);
      await client?.end().catch(() => undefined);
    }
  }

  private async lockHeld(ownerId: string): Promise<boolean> {
    const [a, b] = lockKeys(ownerId);
    return (await this.db.one(LOCK_HELD, [a, b])) !== undefined;
  }

  /** Whether `ownerId`'s lock has stayed missing for DEAD_AFTER_MS: its process is dead. */
  private async lockGone(ownerId: string): Promise<boolean> {
    const now = Date.now();
    if (await this.lockHeld(ownerId)) {
      this.missingSince.delete(ownerId);
      return false;
    }
    const since = this.missingSince.get(ownerId) ?? now;
    this.missingSince.set(ownerId, since);
    return now - since >= DEAD_AFTER_MS;
  }

  /**
   * Whether the process `ownerId` lives: its heartbeat younger than `staleMs`, and its lock
   * held (or missing for less than DEAD_AFTER_MS: being taken again after a server restart).
   */
  async isAlive(ownerId: string, now: number, staleMs: number): Promise<boolean> {
    // Asked anew each time: a replica whose session the server ended takes its lock again.
    if (await this.lockGone(ownerId)) return false;
    // Judged on the database's clock, as the heartbeat was written (see DB_NOW_MS).
    const row = await this.db.one<{ fresh: boolean }>(
      `SELECT heartbeat_at > ${DB_NOW_MS} + $2::bigint AS fresh FROM service_processes WHERE owner_id = $1`,
      [ownerId, msFromNow(now - staleMs)],
    );
    return row?.fresh === true;
  }

  /**
   * Whether the process `ownerId` lives by its lock alone, however old its heartbeat: a
   * replica paused (GC, SIGSTOP, a VM migration) or whose clock disagrees holds its lock,
   * so its temp folder and the keys only it holds are still there. A lock missing for less
   * than DEAD_AFTER_MS counts as held (a server restart, being taken again).
   */
  async livesByLock(ownerId: string): Promise<boolean> {
    return !(await this.lockGone(ownerId));
  }

  /**
   * Never: on a shared database a replica's jobs are its own only while its lease lasts.
   * A replica paused past its lease (or on a host that stopped answering) loses its jobs
   * to the others, as one that died does; the fence (owner and attempt, checked at every
   * write) refuses whatever it still tries to write when it resumes. The SQLite store keeps
   * a frozen process's jobs instead: there every process shares one host and its locks.
   * So replicas' clocks must agree to well under the lease.
   */
  holdsLockHere(): Promise<boolean> {
    return Promise.resolve(false);
  }

  /** Owner ids of the live processes, this one included. */
  async alive(now: number, staleMs: number): Promise<Set<string>> {
    const rows = await this.db.rows<{ owner_id: string }>("SELECT owner_id FROM service_processes");
    const live = new Set<string>();
    for (const { owner_id } of rows) if (await this.isAlive(owner_id, now, staleMs)) live.add(owner_id);
    return live;
  }

  /**
   * Registered processes that are certainly dead (their lock's session ended): their jobs
   * need not wait for leases. Unlike the SQLite store's, this knows it of every host, since
   * the lock lives in the shared database rather than on one host's disk.
   */
  async deadOnThisHost(): Promise<string[]> {
    const rows = await this.db.rows<{ owner_id: string }>("SELECT owner_id FROM service_processes");
    const dead: string[] = [];
    for (const { owner_id } of rows) {
      if (await this.lockGone(owner_id)) dead.push(owner_id);
    }
    return dead;
  }

  /** Forgets processes whose heartbeat stopped long ago and that are not alive (a frozen one keeps its row while its lock is held). */
  async forgetDead(now: number, olderThanMs: number): Promise<void> {
    const rows = await this.db.rows<{ owner_id: string }>(
      `SELECT owner_id FROM service_processes WHERE heartbeat_at < ${DB_NOW_MS} + $1::bigint`,
      [msFromNow(now - olderThanMs)],
    );
    for (const { owner_id } of rows) {
      if (await this.lockGone(owner_id))
        await this.db.run("DELETE FROM service_processes WHERE owner_id = $1", [owner_id]);
    }
  }

  /** Ends the lock connections still held (the store is closing). */
  async releaseAll(): Promise<void> {
    this.relocking.clear();
    const clients = [...this.held.values()];
    this.held.clear();
    await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
  }
}
