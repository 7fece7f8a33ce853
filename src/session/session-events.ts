/** The Session's two kinds of event: a job it sent, a one-line notice. */
import { presentation } from "./presentation/registry.js";
import type { Job } from "./job/job.js";

/** Hears the Session's one-line notices (a normalised upload, an id-like column transformed). */
export type SessionNoticeListener = (message: string) => void;

/** Hears about each job this session creates (see `Session.onJob`). */
export type SessionJobListener = (job: Job) => void;

export class SessionEvents {
  readonly #jobListeners = new Set<SessionJobListener>();
  readonly #noticeListeners = new Set<SessionNoticeListener>();

  onJob(listener: SessionJobListener): () => void {
    this.#jobListeners.add(listener);
    return () => void this.#jobListeners.delete(listener);
  }

  onNotice(listener: SessionNoticeListener): () => void {
    this.#noticeListeners.add(listener);
    return () => void this.#noticeListeners.delete(listener);
  }

  /** To the listeners; without any, in the notebook cell, else as a process warning. */
  notify(message: string): void {
    if (this.#noticeListeners.size === 0) {
      if (!presentation().showNotice(message)) process.emitWarning(message, "MdpsWarning");
      return;
    }
    for (const listener of [...this.#noticeListeners]) listener(message);
  }

  /** Tells each job listener; one that throws does not fail the send (the job was sent): a process warning says so. */
  announce(job: Job): void {
    for (const listener of [...this.#jobListeners]) {
      try {
        listener(job);
      } catch (error) {
        process.emitWarning(
          `A Session.onJob listener threw: ${error instanceof Error ? error.message : String(error)}`,
          "MdpsWarning",
        );
      }
    }
  }
}
