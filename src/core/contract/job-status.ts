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

/**
 * The words services use for each status, lower-case and without separators, so
 * `NotStarted`, `not_started` and `NOT-STARTED` are one word. A service's status is
 * read by meaning: `Completed` is succeeded, `Canceled` is cancelled.
 */
export const JOB_STATUS_SYNONYMS: Readonly<Record<JobStatus, readonly string[]>> = {
  queued: ["queued", "pending", "notstarted", "submitted", "accepted", "waiting", "scheduled", "created", "new"],
  running: ["running", "inprogress", "processing", "starting", "preparing", "started", "active", "executing"],
  succeeded: ["succeeded", "completed", "complete", "success", "successful", "done", "finished"],
  failed: ["failed", "error", "errored", "failure"],
  timed_out: ["timedout", "timeout", "expired"],
  cancelled: ["cancelled", "canceled", "stopped", "aborted"],
};

/** `NotStarted`, `not_started`, `not-started`, `Not Started` -> `notstarted`. */
export function statusKey(word: string): string {
  return word.toLowerCase().replace(/[\s_-]+/g, "");
}

const bySynonym: ReadonlyMap<string, JobStatus> = new Map(
  JOB_STATUSES.flatMap((status) => JOB_STATUS_SYNONYMS[status].map((word) => [word, status] as const)),
);

/**
 * The canonical status a service's word means, or undefined when it is none of the
 * known synonyms (then it is shown verbatim and treated as not terminal).
 *
 * @example
 * canonicalJobStatus("Completed"); // "succeeded"
 * canonicalJobStatus("Finalizing"); // undefined
 */
export function canonicalJobStatus(word: string): JobStatus | undefined {
  return bySynonym.get(statusKey(word));
}

/** What a Session is told about a service's own status words (its `statusAliases` and `terminalStatuses`). */
export interface JobStatusVocabularyOptions {
  /** A service's word -> the canonical status it means, e.g. `{ Finalizing: "running", Archived: "succeeded" }`. */
  readonly statusAliases?: Readonly<Record<string, JobStatus>> | undefined;
  /**
   * Words that end a job although their meaning is not known (a job ending in one of
   * them is reported as failed with that status). Prefer `statusAliases`.
   */
  readonly terminalStatuses?: readonly string[] | undefined;
  /** Called once per unknown word; default: a process warning (`MdpsWarning`). */
  readonly onUnknownStatus?: ((word: string, message: string) => void) | undefined;
}

/**
 * One service's status words read by meaning: the built-in synonyms, then the
 * caller's aliases (which win). An unknown word stays as it is, is not terminal, and
 * is reported once with the options that would teach its meaning.
 */
export class JobStatusVocabulary {
  readonly #aliases: ReadonlyMap<string, JobStatus>;
  readonly #terminal: ReadonlySet<string>;
  readonly #onUnknown: (word: string, message: string) => void;
  readonly #warned = new Set<string>();

  constructor(options: JobStatusVocabularyOptions = {}) {
    this.#aliases = new Map(
      Object.entries(options.statusAliases ?? {}).map(([word, status]) => [statusKey(word), status]),
    );
    this.#terminal = new Set((options.terminalStatuses ?? []).map(statusKey));
    this.#onUnknown =
      options.onUnknownStatus ?? ((_word, message) => process.emitWarning(message, { type: "MdpsWarning" }));
  }

  /** The canonical status of `word`, or `word` itself when its meaning is unknown. */
  canonical(word: string): string {
    const key = statusKey(word);
    const known = this.#aliases.get(key) ?? bySynonym.get(key);
    if (known !== undefined) return known;
    if (!this.#terminal.has(key) && !this.#warned.has(key)) {
      this.#warned.add(key);
      this.#onUnknown(
        word,
        `The service reported job status "${word}", which mdps does not know: it is shown as is and treated as ` +
          `not finished. If it means one of ${JOB_STATUSES.join(", ")}, tell the Session with the option ` +
          `statusAliases: { ${JSON.stringify(word)}: "succeeded" } (or the status it means); if it only ends the ` +
          `job, with terminalStatuses: [${JSON.stringify(word)}].`,
      );
    }
    return word;
  }

  /** True when a job in this status (canonical or the service's word) has ended. */
  isTerminal(status: string): boolean {
    const canonical = this.#aliases.get(statusKey(status)) ?? bySynonym.get(statusKey(status));
    if (canonical !== undefined) return isTerminalStatus(canonical);
    return this.#terminal.has(statusKey(status));
  }
}
