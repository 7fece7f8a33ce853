/**
 * The pipelines run in this REPL session: `p1`, `p2`, ... each a PipelineRun on the
 * service, its state a view per step (what the pipeline panel draws), and once it
 * succeeded its fitted pipeline (for `/pipeline apply` and `/pipeline save`). The list is
 * an immutable snapshot replaced on every change, as React's external store hook needs.
 */
import type { FittedPipeline, PipelineRun, PipelineStepView } from "../../src/index.js";

export interface TrackedPipeline {
  /** Short name to type: `p1`, `p2`, ... */
  readonly ref: string;
  /** What runs on what: `3 steps on train`. */
  readonly label: string;
  readonly steps: readonly PipelineStepView[];
  readonly startedAt: number;
  readonly finishedAt: number | undefined;
  readonly fitted: FittedPipeline | undefined;
  /** Why it did not succeed. */
  readonly error: string | undefined;
}

export class PipelineRuns {
  #items: readonly TrackedPipeline[] = [];
  readonly #runs = new Map<string, PipelineRun>();
  readonly #listeners = new Set<() => void>();
  readonly #now: () => number;
  #counter = 0;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  readonly snapshot = (): readonly TrackedPipeline[] => this.#items;

  get running(): readonly TrackedPipeline[] {
    return this.#items.filter((p) => p.finishedAt === undefined);
  }

  /** Follows `run` under the next `p` ref; `fit` turns its result into the fitted pipeline. */
  track(run: PipelineRun, label: string, fit: Promise<FittedPipeline>): TrackedPipeline {
    const item: TrackedPipeline = {
      ref: `p${++this.#counter}`,
      label,
      steps: run.state,
      startedAt: this.#now(),
      finishedAt: undefined,
      fitted: undefined,
      error: undefined,
    };
    this.#runs.set(item.ref, run);
    this.#replace(item);
    const stop = run.subscribe((steps) => this.#update(item.ref, { steps }));
    fit.then(
      (fitted) => {
        stop();
        this.#update(item.ref, { steps: run.state, fitted, finishedAt: this.#now() });
      },
      (error: unknown) => {
        stop();
        const text = error instanceof Error ? error.message : String(error);
        this.#update(item.ref, { steps: run.state, error: text, finishedAt: this.#now() });
      },
    );
    return item;
  }

  find(ref: string): TrackedPipeline | undefined {
    return this.#items.find((p) => p.ref === ref.trim().toLowerCase());
  }

  run(ref: string): PipelineRun | undefined {
    return this.#runs.get(ref);
  }

  refs(): string[] {
    return this.#items.map((p) => p.ref);
  }

  #update(ref: string, change: Partial<TrackedPipeline>): void {
    const current = this.find(ref);
    if (current) this.#replace({ ...current, ...change });
  }

  #replace(item: TrackedPipeline): void {
    const index = this.#items.findIndex((p) => p.ref === item.ref);
    this.#items = index < 0 ? [...this.#items, item] : this.#items.map((p, i) => (i === index ? item : p));
    for (const listener of this.#listeners) listener();
  }
}
