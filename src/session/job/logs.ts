/**
 * Following a job's log: each message once, oldest first, read every `pollIntervalMs`
 * until the job has ended and its last messages were read.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { JobExecutionLogDetails, JobExecutionLogMessage } from "../../core/contract/job.js";
import { isTerminalStatus } from "../../core/contract/job-status.js";
import { newStart, stopped } from "./polling.js";

export interface FollowOptions {
  readonly signal?: AbortSignal | undefined;
  /** Whether a status ends the job; default the canonical terminal statuses. */
  readonly isTerminal?: ((status: string) => boolean) | undefined;
  /** Pause between polls, ms. Default 250. */
  readonly pollIntervalMs?: number | undefined;
  /** @deprecated Use `pollIntervalMs` (the same value, ms). Still accepted for one more minor version. */
  readonly pollInterval?: number | undefined;
}

/**
 * Yields each log message once, oldest first, until the job is finished and its
 * last messages were read. Messages are append-only, so new ones are those after
 * the last one seen.
 */
export async function* followLogMessages(
  jobId: string,
  fetch: (signal: AbortSignal | undefined) => Promise<JobExecutionLogDetails>,
  options: FollowOptions = {},
): AsyncGenerator<JobExecutionLogMessage> {
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- the alias keeps working
  const pauseMs = options.pollIntervalMs ?? options.pollInterval ?? 250;
  let seen: string[] = [];
  for (;;) {
    let details: JobExecutionLogDetails;
    try {
      details = await fetch(options.signal);
    } catch (error) {
      throw stopped(error, jobId, options.signal, undefined, undefined);
    }
    const keys = details.messages.map(messageKey);
    const start = newStart(seen, keys);
    for (let i = start; i < details.messages.length; i++) yield details.messages[i]!;
    seen = keys;
    // Logs without a status (a service may send a bare list) need the caller's fetch to add it.
    if (details.status !== undefined && (options.isTerminal ?? isTerminalStatus)(details.status)) return;
    try {
      await sleep(pauseMs, undefined, options.signal ? { signal: options.signal } : undefined);
    } catch (error) {
      throw stopped(error, jobId, options.signal, undefined, undefined);
    }
  }
}

function messageKey(m: JobExecutionLogMessage): string {
  return `${m.timestamp ?? ""}\u0000${m.level}\u0000${m.message}`;
}
