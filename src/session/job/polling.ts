/**
 * Waiting on a job: asks the service to answer when the job
 * changes (job get's `wait`/`since`, where the service declares `wait`), else polls with
 * a growing interval; reports every change, and stops on a terminal status, the
 * caller's signal or a timeout.
 * Every duration is in milliseconds and named `…Ms`; the older names `timeout`
 * (seconds) and `pollInterval` are deprecated aliases, and the new name wins when
 * both are given.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { JobRecord } from "../../core/contract/job.js";
import { isTerminalStatus } from "../../core/contract/job-status.js";
import { AbortError, APIError, ConnectionError, TimeoutError } from "../../client/errors.js";
import { isTransient } from "../../client/transient.js";
import type { ProgressMode, ProgressSink } from "../presentation/views.js";
import { combine } from "../abort-signals.js";

export interface WaitOptions {
  /**
   * Called at every change of status, phase or progress, in order: changes that
   * happened between two polls come from the job's event history (the record with that
   * event's status, phase and progress).
   */
  readonly onUpdate?: ((record: JobRecord) => void) | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Give up waiting after this many ms (the job goes on). Default: wait as long as it runs. */
  readonly timeoutMs?: number | undefined;
  /** Longest pause between polls, ms (polls start at 25 ms and grow 1.5x). Default 1000; 200 on Session.local(). */
  readonly pollIntervalMs?: number | undefined;
  /**
   * Without `timeoutMs`, how long the service may stay unreachable (connection refused or
   * reset, 502/503/504, 429) before the wait gives up; the job goes on regardless. Default
   * 10 minutes. With `timeoutMs`, the wait rides out failures until that deadline.
   */
  readonly reconnectForMs?: number | undefined;
  /** Hears each failed read the wait rides out, and when it tries again. */
  readonly onReconnecting?: ((info: ReconnectInfo) => void) | undefined;
  /** @deprecated In seconds: use `timeoutMs` (milliseconds). Still accepted for one more minor version. */
  readonly timeout?: number | undefined;
  /** @deprecated Use `pollIntervalMs` (the same value, ms). Still accepted for one more minor version. */
  readonly pollInterval?: number | undefined;
  /**
   * Live status while waiting: `auto` (the default of `wait()`; `result()` and the
   * reads built on it default to `none`) shows it in a tslab notebook and nothing elsewhere; `text` prints progress lines on stderr; `none`/false shows
   * nothing; or a LiveStatus of your own (see docs/notebooks.md).
   */
  readonly progress?: ProgressMode | ProgressSink | false | undefined;
}

const FIRST_POLL_MS = 25;

/** A read that failed because the service could not be reached, ridden out by the wait. */
export interface ReconnectInfo {
  /** 1 for the first failed read in a row. */
  readonly attempt: number;
  /** When the next read goes. */
  readonly delayMs: number;
  readonly error: Error;
}

/** Waits between reads while the service is unreachable: 250 ms doubling up to 5 s. */
const RECONNECT_FIRST_MS = 250;
const RECONNECT_MAX_MS = 5_000;
const DEFAULT_RECONNECT_FOR_MS = 10 * 60_000;

/**
 * The service did not answer, or answered that it cannot now: a connection refused or
 * reset, an attempt's own timeout, 502/503/504 (a gateway without its service), 429.
 * The transport has already retried each; the wait tries again later.
 */
export function isUnreachable(error: unknown): error is Error {
  return isTransient(error);
}

/** Longest single `wait` asked of the service: well under proxies' idle timeouts. */
export const LONG_POLL_MS = 20_000;

/**
 * A `wait` answer sooner than this share of the time asked, with the revision unchanged,
 * means the service ignored `wait`: from then on the client polls with backoff instead.
 */
const IGNORED_WAIT_SHARE = 0.5;

/** What one read asks the service to wait for: an answer once the revision passes `since`, at most `waitMs`. */
export interface ChangeWait {
  readonly since: number;
  readonly waitMs: number;
}

/** Reads the job once; with `change`, the service holds the answer until the job changes. */
export type JobFetch = (signal: AbortSignal | undefined, change?: ChangeWait) => Promise<JobRecord>;

export interface PollOptions extends WaitOptions {
  /** Whether a status ends the job; default the canonical terminal statuses. */
  readonly isTerminal?: ((status: string) => boolean) | undefined;
  /** The service declares `wait` (docs/contract.md#extensions): read changes as they happen instead of polling. */
  readonly changeWait?: boolean | undefined;
  /** The revision already seen (e.g. the send's record): the first read waits for a later one. */
  readonly since?: number | undefined;
  /** The record already seen (the send's): what a reconnecting note is shown on before the first read. */
  readonly initial?: JobRecord | undefined;
  /** Clock, ms (tests). */
  readonly now?: (() => number) | undefined;
}

/** A wait's durations in ms, from the `…Ms` names or else their deprecated aliases. */
export function waitDurations(options: WaitOptions): {
  timeoutMs: number | undefined;
  pollIntervalMs: number | undefined;
} {
  /* eslint-disable @typescript-eslint/no-deprecated -- the one place the aliases are read */
  const { timeout, pollInterval } = options;
  /* eslint-enable @typescript-eslint/no-deprecated */
  return {
    timeoutMs: options.timeoutMs ?? (timeout === undefined ? undefined : timeout * 1000),
    pollIntervalMs: options.pollIntervalMs ?? pollInterval,
  };
}

/** Delay before poll number `n` (0-based): 25 ms growing 1.5x up to `max`. */
export function pollDelayMs(n: number, max: number): number {
  return Math.min(max, FIRST_POLL_MS * 1.5 ** n);
}

/**
 * Reads the job with `fetch` until its status is terminal (`isTerminal`, default the
 * canonical terminal statuses; a Session passes its vocabulary, which knows the service's
 * words). With `changeWait`, each read asks the service to answer once the record's
 * revision passes the last one seen, so a change arrives one round trip after it
 * happens and nothing is read in between. Without it, or once the service shows it
 * ignores `wait` (an unchanged revision answered well before the time asked, or a
 * record without `revision`), it polls: at once, then after 25 ms growing 1.5x up to
 * `pollIntervalMs`.
 */
export async function pollUntilTerminal(jobId: string, fetch: JobFetch, options: PollOptions = {}): Promise<JobRecord> {
  const isTerminal = options.isTerminal ?? isTerminalStatus;
  const now = options.now ?? (() => performance.now());
  const { timeoutMs, pollIntervalMs } = waitDurations(options);
  const max = Math.max(FIRST_POLL_MS, pollIntervalMs ?? 1000);
  const deadline = timeoutMs === undefined ? undefined : now() + timeoutMs;
  const timeoutSignal = timeoutMs === undefined ? undefined : AbortSignal.timeout(Math.max(0, Math.ceil(timeoutMs)));
  const signal = combine(options.signal, timeoutSignal);
  let last = "";
  let seenEvents: string[] = [];
  const report = (record: JobRecord) => {
    const key = `${record.status}|${record.phase ?? ""}|${record.progress ?? ""}`;
    if (key === last) return;
    last = key;
    options.onUpdate?.(record);
  };
  let changeWait = options.changeWait === true;
  let since = options.since;
  let latest: JobRecord | undefined = options.initial;
  let failing: { since: number; attempt: number; error: Error } | undefined;
  for (let polls = 0; ;) {
    const change: ChangeWait | undefined =
      changeWait && since !== undefined
        ? { since, waitMs: Math.max(0, Math.min(LONG_POLL_MS, deadline === undefined ? Infinity : deadline - now())) }
        : undefined;
    const askedAt = now();
    let record: JobRecord;
    try {
      record = await fetch(signal, change);
    } catch (error) {
      if (!isUnreachable(error) || signal?.aborted)
        throw stopped(error, jobId, options.signal, timeoutSignal, timeoutMs);
      failing = { since: failing?.since ?? now(), attempt: (failing?.attempt ?? 0) + 1, error };
      const delayMs = Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * 2 ** (failing.attempt - 1));
      const giveUpAt = deadline ?? failing.since + (options.reconnectForMs ?? DEFAULT_RECONNECT_FOR_MS);
      if (deadline === undefined && now() + delayMs > giveUpAt) throw lostConnection(jobId, failing, now());
      options.onReconnecting?.({ attempt: failing.attempt, delayMs, error });
      if (latest) {
        const phase = `reconnecting (${shortReason(error)}; try ${failing.attempt + 1} in ${delayMs / 1000} s)`;
        last = ""; // the same note twice still says a new try is coming
        report({ ...latest, phase });
      }
      try {
        await sleep(delayMs, undefined, signal ? { signal } : undefined);
      } catch (sleepError) {
        throw stopped(sleepError, jobId, options.signal, timeoutSignal, timeoutMs, failing);
      }
      continue;
    }
    if (failing !== undefined) {
      failing = undefined;
      last = ""; // back: report the record again, without the reconnecting note
    }
    latest = record;
    if (options.onUpdate) {
      // Changes between two reads are in the job's event history: replay them in
      // order, so every status and phase is reported even when a read missed it.
      // A service without a status history (no `events`) reports what each read sees.
      const events = record.events ?? [];
      const keys = events.map((e) => `${e.timestamp}|${e.status}|${e.phase ?? ""}|${e.progress ?? ""}`);
      const start = newStart(seenEvents, keys);
      seenEvents = keys;
      for (const event of events.slice(start)) {
        report({ ...record, status: event.status, phase: event.phase, progress: event.progress });
      }
      report(record);
    }
    if (isTerminal(record.status)) return record;
    if (changeWait) {
      const revision = record.revision;
      const ignored =
        change !== undefined && revision === change.since && now() - askedAt < change.waitMs * IGNORED_WAIT_SHARE;
      if (revision === undefined || ignored) {
        changeWait = false; // this service does not hold the answer: never read it flat out
      } else {
        since = revision;
        continue;
      }
    }
    try {
      await sleep(pollDelayMs(polls++, max), undefined, signal ? { signal } : undefined);
    } catch (error) {
      throw stopped(error, jobId, options.signal, timeoutSignal, timeoutMs);
    }
  }
}

/** The error of a wait that gave up on an unreachable service: the job goes on, and how to follow it again. */
function lostConnection(jobId: string, failing: { since: number; attempt: number; error: Error }, now: number) {
  return new ConnectionError(
    `Stopped waiting for job ${jobId}: the service has not answered for ${Math.round((now - failing.since) / 1000)} s ` +
      `(${failing.attempt} tries; last: ${shortReason(failing.error)}). The job goes on at the service: ` +
      `\`await job.wait()\` follows it again once the service answers (raise \`reconnectForMs\` to wait longer), ` +
      `and session.job("${jobId}") finds it after a restart.`,
    { cause: failing.error },
  );
}

function shortReason(error: Error): string {
  if (error instanceof APIError) return `answered ${error.status}`;
  const first = error.message.split(/\.\s/)[0] ?? error.message;
  return first.length > 120 ? `${first.slice(0, 119)}…` : first;
}

/** The error a wait or a log follow ends with: the caller's abort and the timeout say so, with what to do next. */
export function stopped(
  error: unknown,
  jobId: string,
  callerSignal: AbortSignal | undefined,
  timeoutSignal: AbortSignal | undefined,
  timeoutMs: number | undefined,
  failing?: { readonly error: Error },
): unknown {
  if (callerSignal?.aborted) {
    return new AbortError(
      `Stopped waiting for job ${jobId}: aborted by the AbortSignal. The job goes on: job.wait() follows it again, job.cancel() stops it.`,
      {
        cause: callerSignal.reason,
      },
    );
  }
  if (timeoutSignal?.aborted) {
    const unreachable = failing ? ` The service was unreachable at the end (${shortReason(failing.error)}).` : "";
    return new TimeoutError(
      `Job ${jobId} did not finish within ${timeoutMs} ms of waiting.${unreachable} It goes on running: wait again, or raise \`timeoutMs\`.`,
      timeoutMs ?? 0,
      { cause: error },
    );
  }
  return error;
}

/**
 * Index in `next` of the first message not yet seen: the longest suffix of `seen`
 * that is a prefix of `next` overlaps (the window slides when older ones drop off).
 */
export function newStart(seen: readonly string[], next: readonly string[]): number {
  for (let offset = 0; offset < seen.length; offset++) {
    const overlap = seen.length - offset;
    if (overlap > next.length) continue;
    let match = true;
    for (let i = 0; i < overlap; i++) {
      if (seen[offset + i] !== next[i]) {
        match = false;
        break;
      }
    }
    if (match) return overlap;
  }
  return 0;
}
