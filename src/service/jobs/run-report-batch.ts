import type { RunReport } from "../store/jobs.js";

/**
 * How long a running attempt's log lines and progress wait to be written together: one
 * transaction per batch instead of one commit per row (a small job's all go in one).
 */
const BATCH_MS = 100;

/** A running attempt's log lines and progress reports, written in batches (JobStore.writeRunReports). */
export class RunReportBatch {
  private pending: RunReport[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly write: (entries: readonly RunReport[]) => void,
    private readonly onError: (err: unknown) => void,
  ) {}

  add(entry: RunReport): void {
    this.pending.push(entry);
    if (this.timer === undefined) {
      this.timer = setTimeout(() => this.flush(), BATCH_MS);
      this.timer.unref();
    }
  }

  /** Writes what is pending: in a transaction of its own, or as part of the caller's. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    try {
      this.write(batch);
    } catch (err) {
      // Logs and progress are advisory: a busy database must not stop the run.
      this.onError(err);
    }
  }
}
