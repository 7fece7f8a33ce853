/**
 * Keeps the jobs started in this session and watches each one in the background, so
 * the jobs panel can show phase and progress while the prompt stays usable. The state
 * is an immutable snapshot replaced on every change (what React's external store
 * hook needs); listeners hear about every change and, separately, about finishes.
 */
import type { JobRecord } from "../../src/index.js";
import { isTerminalStatus, raceAbort, visible } from "../../src/internal/index.js";
import { JobFailedError } from "../../src/index.js";
import { isAbort } from "../errors.js";
import type { JobUpdateSource } from "./session-port.js";

export interface TrackedJob {
  /** Short name to type: `j1`, `j2`, ... */
  readonly ref: string;
  readonly id: string;
  /** What ran on what: `StandardScaler on customers`. */
  readonly label: string;
  readonly status: string;
  readonly phase: string | null;
  /** 0..1; undefined when the service reports no progress (an indeterminate bar). */
  readonly progress: number | undefined;
  readonly startedAt: number;
  readonly finishedAt: number | undefined;
  readonly error: { readonly title: string; readonly detail: string } | undefined;
  /** scikit-learn's warnings on the job's data, once it succeeded (shown in yellow). */
  readonly warnings: readonly JobWarningLine[];
}

export interface JobWarningLine {
  readonly code: string;
  readonly message: string;
  readonly column: string | null;
}

export type JobListener = (job: TrackedJob) => void;

export class JobTracker<J extends JobUpdateSource = JobUpdateSource> {
  #jobs: readonly TrackedJob[] = [];
  readonly #handles = new Map<string, J>();
  readonly #done = new Map<string, Promise<TrackedJob>>();
  readonly #changeListeners = new Set<() => void>();
  readonly #finishListeners = new Set<JobListener>();
  readonly #stop = new AbortController();
  readonly #now: () => number;
  #counter = 0;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Immutable: a new array after every change. */
  get jobs(): readonly TrackedJob[] {
    return this.#jobs;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#changeListeners.add(listener);
    return () => this.#changeListeners.delete(listener);
  };

  readonly snapshot = (): readonly TrackedJob[] => this.#jobs;

  onFinished(listener: JobListener): () => void {
    this.#finishListeners.add(listener);
    return () => this.#finishListeners.delete(listener);
  }

  /**
   * Starts watching a job and gives it the next short name. A job already tracked
   * (same id: sent again with the same id, or reported twice) keeps its row and name.
   */
  track(handle: J, label: string, initial?: Partial<Pick<JobRecord, "status" | "phase" | "progress">>): TrackedJob {
    const known = this.#jobs.find((j) => j.id === handle.id);
    if (known !== undefined) return known;
    const job: TrackedJob = {
      ref: `j${++this.#counter}`,
      id: handle.id,
      label: visible(label),
      status: initial?.status ?? "queued",
      phase: initial?.phase ?? null,
      progress: initial === undefined ? 0 : initial.progress,
      startedAt: this.#now(),
      finishedAt: undefined,
      error: undefined,
      warnings: [],
    };
    this.#handles.set(job.ref, handle);
    this.#replace(job);
    this.#done.set(job.ref, this.#watch(job.ref, handle));
    return job;
  }

  /** Says better what a tracked job runs on (its row keeps its name, state and watcher). */
  relabel(ref: string, label: string): TrackedJob {
    const job = { ...this.#get(ref), label: visible(label) };
    this.#replace(job);
    return job;
  }

  /** By ref (`j2`), full id, or an unambiguous id prefix of at least 4 characters. */
  find(text: string): TrackedJob | undefined {
    const key = text.trim().toLowerCase();
    const exact = this.#jobs.find((j) => j.ref === key || j.id === key);
    if (exact || key.length < 4) return exact;
    const matches = this.#jobs.filter((j) => j.id.startsWith(key));
    return matches.length === 1 ? matches[0] : undefined;
  }

  /**
   * The job's state as seen elsewhere (a /fetch that waited for it to end): the row shows
   * it now instead of at the watcher's next poll, so /jobs right after agrees.
   */
  observe(ref: string, record: Partial<Pick<JobRecord, "status" | "phase" | "progress" | "error">>): void {
    this.#update(ref, record);
  }

  handle(ref: string): J | undefined {
    return this.#handles.get(ref);
  }

  get running(): readonly TrackedJob[] {
    return this.#jobs.filter((j) => j.finishedAt === undefined);
  }

  /** Resolves when the job has finished (whatever the outcome); rejects when `signal` fires. */
  async waitFor(ref: string, signal?: AbortSignal): Promise<TrackedJob> {
    const done = this.#done.get(ref);
    if (done === undefined) throw new Error(`No job ${ref} in this session.`);
    if (signal === undefined) return done;
    signal.throwIfAborted();
    return await raceAbort(done, signal);
  }

  /** Stops watching (the jobs keep running on the service). */
  close(): void {
    this.#stop.abort();
  }

  async #watch(ref: string, handle: J): Promise<TrackedJob> {
    try {
      // A success is recorded once wait returns: Job.wait reads the result (and so the
      // warnings) after the last record, and the finished line should carry them.
      const onUpdate = (record: JobRecord) => {
        if (record.status !== "succeeded") this.#update(ref, record);
      };
      const final = await handle.wait({ signal: this.#stop.signal, onUpdate });
      const warnings = handle.warnings ?? [];
      if (isRecord(final)) this.#update(ref, { ...final, warnings });
      const current = this.#get(ref);
      if (current.finishedAt === undefined)
        this.#update(ref, { status: isTerminalStatus(current.status) ? current.status : "succeeded", warnings });
    } catch (error) {
      if (error instanceof JobFailedError) {
        this.#update(ref, { status: error.status, error: { title: error.title, detail: error.detail } });
      } else if (isAbort(error) && this.#stop.signal.aborted) {
        return this.#get(ref);
      } else {
        // Lost track (network, service gone): say so instead of spinning forever.
        const message = error instanceof Error ? error.message : String(error);
        this.#update(ref, { status: "unknown", error: { title: "Lost track of the job", detail: message } });
      }
    }
    return this.#get(ref);
  }

  #update(
    ref: string,
    change: Partial<Pick<JobRecord, "status" | "phase" | "progress" | "error">> & {
      warnings?: readonly JobWarningLine[];
    },
  ): void {
    const current = this.#get(ref);
    if (current.finishedAt !== undefined) return;
    const status = change.status ?? current.status;
    const finished = isTerminalStatus(status) || status === "unknown";
    const next: TrackedJob = {
      ...current,
      status,
      phase: change.phase === undefined ? current.phase : change.phase === null ? null : visible(change.phase),
      progress: finished && status === "succeeded" ? 1 : (change.progress ?? current.progress),
      // What the service says is shown with control characters made visible (src/core/text/visible-text.ts).
      error: change.error
        ? { title: visible(change.error.title), detail: visible(change.error.detail, { keepNewlines: true }) }
        : current.error,
      finishedAt: finished ? this.#now() : undefined,
      warnings:
        change.warnings?.map((w) => ({ ...w, message: visible(w.message), column: w.column && visible(w.column) })) ??
        current.warnings,
    };
    this.#replace(next);
    if (finished) for (const listener of this.#finishListeners) listener(next);
  }

  #get(ref: string): TrackedJob {
    const job = this.#jobs.find((j) => j.ref === ref);
    if (job === undefined) throw new Error(`untracked job ${ref}`);
    return job;
  }

  #replace(job: TrackedJob): void {
    const index = this.#jobs.findIndex((j) => j.ref === job.ref);
    this.#jobs = index < 0 ? [...this.#jobs, job] : this.#jobs.map((j, i) => (i === index ? job : j));
    for (const listener of this.#changeListeners) listener();
  }
}

function isRecord(value: unknown): value is Pick<JobRecord, "status" | "phase" | "progress" | "error"> {
  return typeof value === "object" && value !== null && typeof (value as { status?: unknown }).status === "string";
}
