/**
 * Other replicas' job changes, heard over LISTEN on a connection of its own: the jobs
 * table's trigger (migrations.ts) announces every new revision at its commit. A replica
 * then claims a job sent to another one at once, and a job get waiting on a job another
 * replica runs answers without reading the row in a loop.
 *
 * A notification is lost while the connection is down (a restart of the server, a cut
 * network): the feed reconnects with backoff, and on each reconnect says "anything may
 * have changed" (a call without a change), so listeners look once; their slow polls
 * stay the fallback for whatever else is missed.
 */
import type pg from "pg";
import { JOB_STATUSES, type JobStatus } from "../../../core/contract/index.js";
import type { JobChange } from "../port.js";

/** The channel the trigger announces on. */
export const CHANGE_CHANNEL = "mdps_jobs";
/** Waits between reconnect attempts, the last one repeated while the server stays away. */
const RECONNECT_MS = [100, 250, 500, 1000, 2000];

const STATUSES: ReadonlySet<string> = new Set(JOB_STATUSES);

/** The change a payload announces, or undefined for one this process wrote itself or cannot read. */
export function changeOf(payload: string | undefined, me: string): JobChange | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload ?? "");
  } catch {
    return undefined;
  }
  const p = parsed as { id?: unknown; status?: unknown; revision?: unknown; from?: unknown };
  if (p.from === me || typeof p.id !== "string" || typeof p.revision !== "number") return undefined;
  if (typeof p.status !== "string" || !STATUSES.has(p.status)) return undefined;
  return { id: p.id, status: p.status as JobStatus, revision: p.revision, elsewhere: true };
}

export class PgChangeFeed {
  private client: pg.Client | undefined;
  private closed = false;
  private failures = 0;
  private timer: NodeJS.Timeout | undefined;
  private connected = false;

  constructor(
    private readonly options: {
      /** A new connection outside the pool (PgDb.dedicatedClient). */
      connect: () => Promise<pg.Client>;
      /** This process's application_name: its own announcements are told locally, after commit. */
      me: string;
      /** Told each change heard, or nothing once reconnected (anything may have changed). */
      heard: (change?: JobChange) => void;
    },
  ) {}

  /** Starts listening; resolves once the first LISTEN is in place or has failed (it then keeps trying). */
  async start(): Promise<void> {
    await this.listen();
  }

  /** Whether the feed is listening now. */
  get live(): boolean {
    return this.connected;
  }

  private async listen(): Promise<void> {
    if (this.closed) return;
    let client: pg.Client | undefined;
    try {
      client = await this.options.connect();
      client.on("notification", (message) => {
        const change = changeOf(message.payload, this.options.me);
        if (change) this.options.heard(change);
      });
      // An error or end of this connection (a restart) leaves the feed deaf until it reconnects.
      client.once("end", () => this.lost(client!));
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
    } catch {
      if (client) await client.end().catch(() => undefined);
      this.retry();
      return;
    }
    // close() may have run while this connected.
    if (this.isClosed()) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.connected = true;
    // What was announced while no one listened is gone: listeners look once for themselves.
    if (this.failures > 0) this.options.heard();
    this.failures = 0;
  }

  /** Read anew after an await. */
  private isClosed(): boolean {
    return this.closed;
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.connected = false;
    this.failures = Math.max(this.failures, 1);
    if (!this.closed) this.retry();
  }

  private retry(): void {
    if (this.closed) return;
    const wait = RECONNECT_MS[Math.min(this.failures, RECONNECT_MS.length - 1)]!;
    this.failures++;
    this.timer = setTimeout(() => void this.listen(), wait);
    this.timer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    this.connected = false;
    await client?.end().catch(() => undefined);
  }
}
