/**
 * A job the client has just sent may not be readable yet: a service that puts sends on a
 * queue answers 404 to its reads for a moment. Reads of a job this client sent less than
 * the grace ago treat a 404 as "not visible yet" and read again; after the grace the 404
 * stands, with a message that names the grace and its setting.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { NotFoundError, type APIErrorInit } from "./errors.js";

/** The default grace: longer than the queues seen in the wild (about a second), short enough to notice. */
export const DEFAULT_JOB_VISIBLE_GRACE_MS = 8_000;

const FIRST_PAUSE_MS = 100;
const MAX_PAUSE_MS = 1_000;
/** Sends remembered at most; the oldest are forgotten first (their grace is long over). */
const REMEMBERED = 1_000;

export interface JobVisibilityOptions {
  /** How long after its send a job's 404 means "not visible yet", ms; 0 turns the grace off. */
  readonly graceMs?: number | undefined;
  /** Clock, ms (tests). */
  readonly now?: (() => number) | undefined;
}

/** When this client sent each job, and the read-again rule of the grace. */
export class JobVisibility {
  readonly #sentAt = new Map<string, number>();
  readonly #now: () => number;
  #graceMs: number;

  constructor(options: JobVisibilityOptions = {}) {
    this.#graceMs = options.graceMs ?? DEFAULT_JOB_VISIBLE_GRACE_MS;
    this.#now = options.now ?? Date.now;
  }

  get graceMs(): number {
    return this.#graceMs;
  }

  /** A profile read again (`reloadCredentials`) may change the grace of a running client. */
  useGrace(graceMs: number | undefined): void {
    this.#graceMs = graceMs ?? DEFAULT_JOB_VISIBLE_GRACE_MS;
  }

  /** Notes that the service acknowledged a send of job `id` now (or at `at`, for a journal's job). */
  sent(id: string, at: number = this.#now()): void {
    this.#sentAt.delete(id);
    this.#sentAt.set(id, at);
    if (this.#sentAt.size > REMEMBERED) this.#sentAt.delete(this.#sentAt.keys().next().value!);
  }

  /**
   * `read()`, read again while it answers 404 within the grace of the job's send; a 404
   * after the grace says the job was sent and how long mdps waited for it to appear.
   */
  async read<T>(id: string, read: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    let pause = FIRST_PAUSE_MS;
    for (;;) {
      try {
        return await read();
      } catch (error) {
        const sentAt = this.#sentAt.get(id);
        if (!(error instanceof NotFoundError) || sentAt === undefined) throw error;
        const left = sentAt + this.#graceMs - this.#now();
        if (left <= 0) throw this.#stillMissing(id, error);
        await sleep(Math.min(pause, left), undefined, signal ? { signal } : undefined);
        pause = Math.min(pause * 2, MAX_PAUSE_MS);
      }
    }
  }

  #stillMissing(id: string, error: NotFoundError): NotFoundError {
    const seconds = (this.#graceMs / 1000).toFixed(1);
    const init: APIErrorInit = {
      status: error.status,
      code: error.code,
      message:
        `The service acknowledged job ${id}, but still answers 404 for it ${seconds} s after the send. ` +
        `If its queue is slower than that, give a longer grace: the profile key job_visible_grace_ms ` +
        `(or the Session option jobVisibleGraceMs); else ask its operators where the job went.`,
      title: error.title,
      detail: error.detail,
      type: error.type,
      instance: error.instance,
      requestId: error.requestId,
      errors: error.errors,
      body: error.body,
      headers: error.headers,
      call: error.call,
      remedy: "Raise job_visible_grace_ms in the profile, or read the job again later.",
      cause: error,
    };
    return new NotFoundError(init);
  }
}
