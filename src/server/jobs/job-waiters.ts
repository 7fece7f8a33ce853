import { TERMINAL_JOB_STATUSES, type JobStatus } from "../../core/contract/index.js";
import type { JobChange } from "../store/port.js";

/** The cheap read a waiter checks: a job's status and revision, or undefined once it is gone. */
export type RevisionOf = (jobId: string) => Promise<{ status: JobStatus; revision: number } | undefined>;

interface Waiter {
  since: number;
  done: () => void;
}

/** How often the store is read while someone waits: changes made by other processes show up this late at most. */
export const WAIT_CHECK_MS = 75;
/** The same for a store that announces other processes' changes: only what its feed missed waits this long. */
export const FEED_FALLBACK_CHECK_MS = 1000;

const TERMINAL: ReadonlySet<string> = new Set(TERMINAL_JOB_STATUSES);

/**
 * Job get's `wait`/`since` (docs/contract.md#waiting-without-polling). The wake-up
 * comes from the shared store, so it works whichever process runs the job: a change this
 * process writes wakes its waiters at once (`changed`, after the transaction, which is
 * synchronous, has committed), and while anyone waits the rows are read every
 * WAIT_CHECK_MS (one prepared primary-key read per waited-on job) for changes other
 * processes wrote.
 */
export class JobWaiters {
  private readonly waiting = new Map<string, Set<Waiter>>();
  private timer: NodeJS.Timeout | undefined;
  private scheduled = false;
  /** A check is reading the store; `again`: a change came meanwhile, so it looks once more. */
  private checking = false;
  private again = false;
  private closed = false;

  constructor(
    private readonly revisionOf: RevisionOf,
    private readonly checkMs = WAIT_CHECK_MS,
  ) {}

  /**
   * Resolves when the job's revision is greater than `since` or it is terminal or gone,
   * after `ms` otherwise, when `signal` aborts, or when the service closes.
   */
  async wait(jobId: string, since: number, ms: number, signal?: AbortSignal): Promise<void> {
    if (this.answersAtOnce(ms, signal) || (await this.ready(jobId, since))) return;
    // Closed or aborted while the first read was under way: answer now.
    if (this.answersAtOnce(ms, signal)) return;
    return new Promise((resolve) => {
      let set = this.waiting.get(jobId);
      if (!set) this.waiting.set(jobId, (set = new Set()));
      const waiter: Waiter = {
        since,
        done: () => {
          clearTimeout(timeout);
          signal?.removeEventListener("abort", waiter.done);
          const of = this.waiting.get(jobId);
          of?.delete(waiter);
          if (of?.size === 0) this.waiting.delete(jobId);
          if (this.waiting.size === 0) this.stopTimer();
          resolve();
        },
      };
      const timeout = setTimeout(waiter.done, ms);
      signal?.addEventListener("abort", waiter.done, { once: true });
      set.add(waiter);
      this.startTimer();
    });
  }

  /**
   * A job changed: its waiters are answered from `change` itself when given (another
   * process's change, as it committed); without one, the waiters are checked once the
   * current transaction is over.
   */
  changed(change?: JobChange): void {
    if (change) {
      for (const w of [...(this.waiting.get(change.id) ?? [])])
        if (change.revision > w.since || TERMINAL.has(change.status)) w.done();
      return;
    }
    if (this.scheduled || this.waiting.size === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.check();
    });
  }

  /** Answers every waiter now (the service is stopping). */
  close(): void {
    this.closed = true;
    for (const set of [...this.waiting.values()]) for (const w of [...set]) w.done();
    this.stopTimer();
  }

  get size(): number {
    let n = 0;
    for (const set of this.waiting.values()) n += set.size;
    return n;
  }

  private answersAtOnce(ms: number, signal: AbortSignal | undefined): boolean {
    return this.closed || ms <= 0 || signal?.aborted === true;
  }

  private async ready(jobId: string, since: number): Promise<boolean> {
    const now = await this.revisionOf(jobId);
    return now === undefined || now.revision > since || TERMINAL.has(now.status);
  }

  private async check(): Promise<void> {
    if (this.checking) {
      this.again = true;
      return;
    }
    this.checking = true;
    try {
      this.again = false;
      do {
        for (const [jobId, set] of [...this.waiting]) {
          let now;
          try {
            now = await this.revisionOf(jobId);
          } catch {
            return; // a busy or closing database: the next check tries again
          }
          for (const w of [...set]) {
            if (now === undefined || now.revision > w.since || TERMINAL.has(now.status)) w.done();
          }
        }
      } while (this.changedMeanwhile());
    } finally {
      this.checking = false;
    }
  }

  /** Whether a change came while the last check read (and forgets it). */
  private changedMeanwhile(): boolean {
    const again = this.again;
    this.again = false;
    return again;
  }

  private startTimer(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => void this.check(), this.checkMs);
    this.timer.unref();
  }

  private stopTimer(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }
}
