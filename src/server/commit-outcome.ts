/**
 * What became of a commit that threw. A write whose connection broke after the database
 * executed it (a restart, a failover, a network blip, a firewall cutting the socket) did
 * commit, though its caller heard an error: deleting the file it placed would leave a row
 * whose bytes are gone. So a placed file is removed only once the database, asked again,
 * says its row is not there after an answer it gave itself; a commit it cannot be asked
 * about keeps its files (held by a link in this process's temp folder) and is settled in
 * the background as soon as the database answers again.
 */
import type { FastifyBaseLogger } from "fastify";
import type { BlobFiles } from "./blob-bytes/blob-files.js";
import { storageFaultOf } from "./store/storage-fault.js";
import { settleBrokenWrite } from "./domain/storage-faults.js";

/**
 * `committed`: the row is there. `absent`: it is not, and nothing can commit later (the
 * error was the database's own answer, or the broken connection's write was ended before
 * the re-read). `absent_after_break`: it is not, but the connection broke mid-commit and
 * its write could not be ended, so it could still land: its file is left for the orphan
 * sweep, which asks the database again. `unknown`: the database could not be asked.
 */
export type CommitOutcome<T> =
  { kind: "committed"; value: T } | { kind: "absent" } | { kind: "absent_after_break" } | { kind: "unknown" };

/** How often, and how far apart, a request asks the database again before answering. */
const REREAD_DELAYS_MS = [100, 300, 600, 1000, 2000];
/** How often the background settles the commits left unknown. */
const SETTLE_EVERY_MS = 5000;

/** Whether `err` left the commit's outcome open: the connection broke, the database may have executed it. */
export function mayHaveCommitted(err: unknown): boolean {
  return storageFaultOf(err) === "unavailable";
}

/**
 * Asks `reread` (undefined: the row is not there) until the database answers, a few times
 * over a few seconds: the outcome of a commit that threw `err`.
 */
export async function resolveCommit<T>(
  err: unknown,
  reread: () => Promise<T | undefined>,
  delaysMs: readonly number[] = REREAD_DELAYS_MS,
): Promise<CommitOutcome<T>> {
  const broken = mayHaveCommitted(err);
  for (let i = 0; ; i++) {
    try {
      // The write may still be on its way (its backend running on): ended first, the re-read is final.
      const ended = broken && (await settleBrokenWrite(err));
      const value = await reread();
      if (value !== undefined) return { kind: "committed", value };
      return broken && !ended ? { kind: "absent_after_break" } : { kind: "absent" };
    } catch {
      const delay = delaysMs[i];
      if (delay === undefined) return { kind: "unknown" };
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}

interface Unsettled {
  /** Whether the row is there; throws while the database does not answer. */
  committed: () => Promise<boolean>;
  /** What to remove once it is known committed (an update's previous revision). */
  whenCommitted: readonly string[];
  /** Links in this process's temp folder that keep the placed files from the orphan sweep. */
  holds: readonly string[];
  what: string;
}

/**
 * Commits whose outcome is unknown, settled when the database answers again: then the
 * holds go (a committed file is the row's; one not committed is left to the sweep, see
 * CommitOutcome) and, once committed, what the commit replaced. At a stop the holds go
 * with this process's temp folder, and the next start's sweep asks the database file by file.
 */
export class UnsettledCommits {
  private readonly open = new Set<Unsettled>();
  private timer: NodeJS.Timeout | undefined;
  private settling = false;

  constructor(
    private readonly files: BlobFiles,
    private readonly log: FastifyBaseLogger,
  ) {}

  get size(): number {
    return this.open.size;
  }

  /** Holds `placed` (files whose commit is unknown) until `committed` answers. */
  async add(entry: {
    placed: readonly string[];
    committed: () => Promise<boolean>;
    whenCommitted?: readonly string[];
    what: string;
  }): Promise<void> {
    const holds = await Promise.all(entry.placed.map((path) => this.files.hold(path)));
    this.open.add({ committed: entry.committed, whenCommitted: entry.whenCommitted ?? [], holds, what: entry.what });
    this.log.warn(
      { what: entry.what },
      "a commit's outcome is unknown (the database connection broke); its files are kept",
    );
    this.timer ??= setInterval(() => void this.settle(), SETTLE_EVERY_MS).unref();
  }

  /** Asks the database about each open commit once; those it answers are settled. */
  async settle(): Promise<void> {
    if (this.settling) return;
    this.settling = true;
    try {
      for (const entry of [...this.open]) {
        let committed: boolean;
        try {
          committed = await entry.committed();
        } catch {
          return; // still unreachable: the next round asks again
        }
        this.open.delete(entry);
        if (committed) await Promise.all(entry.whenCommitted.map((p) => this.files.remove(p)));
        await Promise.all(entry.holds.map((p) => this.files.remove(p)));
        this.log.info({ what: entry.what, committed }, "a commit's unknown outcome is settled");
      }
    } finally {
      this.settling = false;
      if (this.open.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    }
  }

  /** At a stop: asks once more, then lets the rest go (their holds go with the temp folder). */
  async close(): Promise<void> {
    await this.settle().catch(() => undefined);
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
