/**
 * Connects a job poller to a LiveStatus: each status change renders at once, the
 * latest log lines are fetched beside it (one request in flight at most, never
 * delaying the poll), and the end of waiting — success, failure, abort or timeout —
 * leaves a final state in the output.
 *
 * Job.wait uses `jobProgress` directly; `watch(job)` wraps any job handle that has
 * `wait({ onUpdate, signal })` (and optionally `logs({ limit })`).
 */
import { isTerminalStatus } from "../../core/contract/job-status.js";
import { outputsSent } from "./kernel-display.js";
import {
  LiveStatus,
  type JobSnapshot,
  type LiveStatusOptions,
  type LogLine,
  type ProgressMode,
} from "./live-status.js";

export type LogFetcher = (limit: number) => Promise<readonly LogLine[]>;

export class JobProgress {
  readonly live: LiveStatus;
  readonly #fetchLogs: LogFetcher | undefined;
  #inFlight: Promise<void> | undefined;
  #again = false;
  #latest: JobSnapshot | undefined;

  constructor(live: LiveStatus, fetchLogs?: LogFetcher) {
    this.live = live;
    this.#fetchLogs = live.logLines > 0 ? fetchLogs : undefined;
  }

  /** Pass as (or call from) the poller's `onUpdate`. */
  readonly onUpdate = (snapshot: JobSnapshot): void => {
    this.#latest = snapshot;
    this.live.update(snapshot);
    this.#refreshLogs();
  };

  /** Final render with the terminal record and its last log lines; resolves once it has left. */
  async finish(snapshot?: JobSnapshot): Promise<void> {
    if (snapshot) this.#latest = snapshot;
    await this.#inFlight;
    const logs = await this.#logsOrUndefined();
    this.live.finish(this.#latest, logs);
    // Its own card, and any notice given meanwhile.
    await Promise.all([this.live.settled(), outputsSent()]);
  }

  /**
   * Waiting ended without a terminal status (abort, timeout, network): the output
   * says so, that the job goes on, and how to follow or cancel it (unless the reason
   * already does).
   */
  stopped(reason: string): void {
    const last = this.#latest ?? { status: "unknown" };
    const next = /goes on/.test(reason) ? "" : " The job goes on: wait again to follow it, or job.cancel() to stop it.";
    this.live.finish({ ...last, error: { title: "stopped waiting", detail: `${reason}${next}` } });
  }

  #refreshLogs(): void {
    if (!this.#fetchLogs) return;
    if (this.#inFlight) {
      this.#again = true;
      return;
    }
    this.#inFlight = (async () => {
      do {
        this.#again = false;
        const logs = await this.#logsOrUndefined();
        if (logs && this.#latest) this.live.update(this.#latest, logs);
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- #refreshLogs() sets it again while the await above is pending
      } while (this.#again);
    })().finally(() => {
      this.#inFlight = undefined;
    });
  }

  async #logsOrUndefined(): Promise<readonly LogLine[] | undefined> {
    if (!this.#fetchLogs) return undefined;
    try {
      return await this.#fetchLogs(this.live.logLines);
    } catch {
      return undefined; // Logs are a nicety: a failed read never fails the wait.
    }
  }
}

export interface ProgressOptions extends Omit<LiveStatusOptions, "mode"> {
  /** `auto` (default): live in a notebook (tslab or Deno), nothing elsewhere. Or a LiveStatus of your own. */
  progress?: ProgressMode | LiveStatus | false;
}

/** The progress reporter for one wait, or undefined when nothing would be shown. */
export function jobProgress(options: ProgressOptions = {}, fetchLogs?: LogFetcher): JobProgress | undefined {
  const { progress, ...liveOptions } = options;
  if (progress === false || progress === "none") return undefined;
  const live = progress instanceof LiveStatus ? progress : new LiveStatus({ ...liveOptions, mode: progress ?? "auto" });
  return live.mode === "none" ? undefined : new JobProgress(live, fetchLogs);
}

/** What `watch` passes to `job.wait`. */
export interface WatchWaitOptions {
  onUpdate: (record: JobSnapshot) => void;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Tells a wait that shows progress itself not to show it a second time. */
  progress: false;
}

/** The part of a job handle `watch` needs; the Session's Job is one. */
export interface WatchableJob {
  wait(options: WatchWaitOptions): Promise<JobSnapshot>;
  logs?(options: { limit?: number }): Promise<readonly LogLine[]>;
  readonly record?: JobSnapshot | undefined;
}

export interface WatchOptions extends ProgressOptions {
  signal?: AbortSignal;
  /** Stop waiting after this many ms (the job goes on). */
  timeoutMs?: number;
  /**
   * @deprecated In seconds: use `timeoutMs` (milliseconds). Still accepted for one more
   * minor version; `timeoutMs` wins when both are given.
   */
  timeout?: number;
}

/**
 * Waits for a job while showing its live status; rethrows what `job.wait` throws (a
 * failed job, an abort) after showing it. Resolves to nothing, so `await watch(job)`
 * as the last line of a cell prints nothing below the status (the final record is
 * `job.record`). Given several jobs (an array, a Map's values), it shows a status for
 * each and resolves once every one has ended, again to nothing: a cell ending in
 * `await Promise.all(jobs.map(watch))` would print an array of `undefined` under them.
 * Then the first failure is rethrown, after the other jobs have ended.
 *
 * @example
 * await watch(job, { signal: AbortSignal.timeout(60_000) });
 * await watch(jobs.values(), { logLines: 1 });
 */
export async function watch(jobs: WatchableJob | Iterable<WatchableJob>, options: WatchOptions = {}): Promise<void> {
  if (!(Symbol.iterator in jobs)) return watchOne(jobs, options);
  const ended = await Promise.allSettled([...jobs].map((job) => watchOne(job, options)));
  const failed = ended.find((e): e is PromiseRejectedResult => e.status === "rejected");
  if (failed) throw failed.reason;
}

async function watchOne(job: WatchableJob, options: WatchOptions): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- the alias keeps working
  const { signal, timeoutMs: givenMs, timeout, ...progressOptions } = options;
  const timeoutMs = givenMs ?? (timeout === undefined ? undefined : timeout * 1000);
  const logs = job.logs ? (limit: number) => job.logs!({ limit }) : undefined;
  await followWithStatus(
    jobProgress(progressOptions, logs),
    (onUpdate) =>
      job.wait({
        onUpdate,
        progress: false,
        ...(signal ? { signal } : {}),
        ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      }),
    () => job.record,
  );
}

/**
 * Runs a wait with the live status driven by the wait's `onUpdate`: the status ends with
 * the terminal record, also one a thrown error carries (a failed job), and otherwise
 * says the wait stopped (an abort, a timeout). What the wait throws is rethrown.
 */
export async function followWithStatus<R extends JobSnapshot>(
  progress: JobProgress | undefined,
  wait: (onUpdate: (record: JobSnapshot) => void) => Promise<R>,
  latest: () => JobSnapshot | undefined = () => undefined,
): Promise<R> {
  try {
    const record = await wait((record) => progress?.onUpdate(record));
    await progress?.finish(record);
    return record;
  } catch (error) {
    const record = (error as { record?: JobSnapshot }).record ?? latest();
    if (record && isTerminalStatus(record.status)) await progress?.finish(record);
    else progress?.stopped(error instanceof Error ? error.message : String(error));
    throw error;
  }
}
