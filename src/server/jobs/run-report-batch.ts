import type { RunReport } from "../domain/job-rows.js";

/**
 * How long a running attempt's log lines and progress wait to be written together: one
 * transaction per batch instead of one commit per row (a small job's all go in one).
 */
const BATCH_MS = 100;

/**
 * A running attempt's log lines and progress reports, written in batches (JobStore.writeRunReports),
 * one write at a time and in order.
 */
export class RunReportBatch {
  private pending: RunReport[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly write: (entries: readonly RunReport[]) => Promise<void>,
    private readonly onError: (err: unknown) => void,
  ) {}

  add(entry: RunReport): void {
    this.pending.push(entry);
    if (this.timer === undefined) {
      this.timer = setTimeout(() => void this.flush(), BATCH_MS);
      this.timer.unref();
    }
  }

  /** Writes what is pending, after the writes before it; resolves when all have been tried. Never rejects. */
  flush(): Promise<void> {
    this.stopTimer();
    if (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      // Logs and progress are advisory: a busy database must not stop the run.
      this.writing = this.writing.then(() => this.write(batch)).catch(this.onError);
    }
    return this.writing;
  }

  /** Takes out what is pending, once the writes before it are done, for the caller to write with its own. */
  async take(): Promise<RunReport[]> {
    this.stopTimer();
    await this.writing;
    this.stopTimer();
    const batch = this.pending;
    this.pending = [];
    return batch;
  }

  private stopTimer(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
