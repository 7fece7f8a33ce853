/**
 * Which server process (backend) each pooled connection talks to, so that a write whose
 * connection broke can be ended for good. A broken connection does not stop its backend
 * at once: a statement it was running (waiting on a lock, say) can still commit after
 * the replica has re-read the row and told its client "not stored". Terminating that
 * backend, and waiting until it is gone, makes the write's outcome final; a re-read after
 * it tells the truth.
 */
import type pg from "pg";
import { neverConnected, type PgStorageFault } from "./errors.js";

/** A backend, named so that a later process reusing its pid is not mistaken for it. */
interface Backend {
  pid: number;
  /** `backend_start` as the server prints it. */
  started: string;
}

/**
 * The connection broke while its identity was asked, before any statement of the store's:
 * the driver sends one statement at a time, so the ones queued behind were never sent.
 */
const NEVER_USED = "never-used";
type Known = Promise<Backend | typeof NEVER_USED | undefined>;

/** How long a settle waits for a terminated backend to be gone before the outcome stays open. */
const SETTLE_WAIT_MS = 3000;
const SETTLE_POLL_MS = 50;

const IDENTITY_SQL = "SELECT pid, backend_start::text AS started FROM pg_stat_activity WHERE pid = pg_backend_pid()";
const TERMINATE_SQL =
  "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid = $1 AND backend_start::text = $2";
const ALIVE_SQL = "SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND backend_start::text = $2";

export class BackendRegistry {
  private readonly ofClient = new WeakMap<pg.ClientBase, Known>();
  private readonly ofError = new WeakMap<object, Known>();

  constructor(private readonly pool: pg.Pool) {
    // Asked once per connection, before its first statement (the driver queues them in order).
    pool.on("connect", (client) => {
      this.ofClient.set(
        client,
        client.query(IDENTITY_SQL).then(
          (r) => r.rows[0] as Backend | undefined,
          () => NEVER_USED,
        ),
      );
    });
  }

  /** Remembers that `err` came from `client`'s connection. */
  blame(err: unknown, client: pg.ClientBase): void {
    const backend = this.ofClient.get(client);
    if (backend && typeof err === "object" && err !== null && !this.ofError.has(err)) this.ofError.set(err, backend);
  }

  /** Remembers that `err` came before any statement was sent (a connection that could not be made). */
  neverSent(err: unknown): void {
    if (typeof err === "object" && err !== null) this.ofError.set(err, Promise.resolve(NEVER_USED));
  }

  /** Gives a broken connection's fault the means to end the write it may have been carrying. */
  attachSettle(fault: PgStorageFault, err: unknown): void {
    if (fault.kind !== "unavailable") return;
    if (neverConnected(fault.sqlState)) {
      fault.settleWrite = () => Promise.resolve(true);
      return;
    }
    const backend = typeof err === "object" && err !== null ? this.ofError.get(err) : undefined;
    if (backend) fault.settleWrite = () => this.end(backend);
  }

  /**
   * Terminates the backend and waits until it is gone: true once it is (its write has
   * committed or never will) or when no write was ever sent on it, false when it did not
   * go in time or was never known. Throws while the database cannot be asked.
   */
  private async end(known: Known): Promise<boolean> {
    const backend = await known;
    if (backend === NEVER_USED) return true;
    if (!backend) return false;
    const params = [backend.pid, backend.started];
    await this.pool.query(TERMINATE_SQL, params);
    const deadline = Date.now() + SETTLE_WAIT_MS;
    for (;;) {
      const alive = await this.pool.query(ALIVE_SQL, params);
      if (alive.rowCount === 0) return true;
      if (Date.now() > deadline) return false;
      await new Promise((r) => setTimeout(r, SETTLE_POLL_MS));
    }
  }
}
