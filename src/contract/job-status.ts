/**
 * The canonical job statuses and which of them are final: the one list the client,
 * the service, the REPL and the notebook read. A service that names its statuses
 * differently gets its words mapped onto these here, in one place.
 */

/** Every status a job record can carry, in the order a job goes through them. */
export const JOB_STATUSES = ["queued", "running", "succeeded", "failed", "timed_out", "cancelled"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** The statuses a job ends in; a job in one of them never changes again. */
export const TERMINAL_JOB_STATUSES = [
  "succeeded",
  "failed",
  "timed_out",
  "cancelled",
] as const satisfies readonly JobStatus[];
export type TerminalJobStatus = (typeof TERMINAL_JOB_STATUSES)[number];

const terminal: ReadonlySet<string> = new Set(TERMINAL_JOB_STATUSES);

/**
 * True when a job with this status has ended. Unknown statuses (a service may add
 * some) are not terminal: a poller keeps polling rather than stopping early.
 */
export function isTerminalStatus(status: string): status is TerminalJobStatus {
  return terminal.has(status);
}

/** @deprecated Use TERMINAL_JOB_STATUSES. */
export const TERMINAL_STATUSES: readonly JobStatus[] = TERMINAL_JOB_STATUSES;

/** @deprecated Use isTerminalStatus. */
export function isTerminal(status: string): boolean {
  return isTerminalStatus(status);
}
