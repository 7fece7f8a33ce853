/**
 * The REPL's state machine, outside React: it runs lines, keeps the transcript
 * (a discriminated union of items), the busy state and the history, and turns every
 * command output into transcript changes in one place (`#process`). The Ink app and
 * piped mode both drive it; components only render its snapshot.
 */
import { AbortError } from "../src/index.js";
import { COMMANDS } from "./commands/registry.js";
import type { Command, Output } from "./commands/types.js";
import { dispatch } from "./dispatch.js";
import { visibleOutput } from "./format/visible-output.js";
import { complete, type Completion } from "./input/completion.js";
import { HistoryStore } from "./input/history-store.js";
import type { TrackedJob } from "./workspace/job-tracker.js";
import type { Workspace } from "./workspace/workspace.js";

export type HistoryItem =
  | { readonly id: number; readonly kind: "banner"; readonly lines: readonly string[] }
  | { readonly id: number; readonly kind: "input"; readonly text: string }
  | { readonly id: number; readonly kind: "comment"; readonly text: string }
  | { readonly id: number; readonly kind: "output"; readonly output: Output }
  | { readonly id: number; readonly kind: "job"; readonly job: TrackedJob };

export type NewItem = HistoryItem extends infer T ? (T extends HistoryItem ? Omit<T, "id"> : never) : never;

export interface ReplState {
  /** The transcript since the last /clear, oldest first. */
  readonly items: readonly HistoryItem[];
  /** The line running now, if any. */
  readonly busy: { readonly line: string; readonly since: number } | undefined;
  /** Bumped by /clear so the screen can drop what it already printed. */
  readonly epoch: number;
  readonly quitting: boolean;
}

export interface ControllerOptions {
  readonly history?: HistoryStore | undefined;
  readonly interactive: boolean;
  readonly width?: number | undefined;
  readonly commands?: readonly Command[] | undefined;
}

export class ReplController {
  readonly workspace: Workspace;
  readonly commands: readonly Command[];
  readonly history: HistoryStore;
  readonly interactive: boolean;
  width: number;
  /** Lines whose output was an error (piped mode's exit status). */
  failures = 0;
  #state: ReplState = { items: [], busy: undefined, epoch: 0, quitting: false };
  #nextId = 1;
  #running: AbortController | undefined;
  readonly #listeners = new Set<() => void>();
  readonly #unsubscribe: () => void;

  constructor(workspace: Workspace, options: ControllerOptions) {
    this.workspace = workspace;
    this.commands = options.commands ?? COMMANDS;
    this.history = options.history ?? new HistoryStore(undefined);
    this.interactive = options.interactive;
    this.width = options.width ?? 100;
    this.#unsubscribe = workspace.jobs.onFinished((job) => this.add({ kind: "job", job }));
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  readonly snapshot = (): ReplState => this.#state;

  add(item: NewItem): void {
    this.#set({ items: [...this.#state.items, { ...item, id: this.#nextId++ }] });
  }

  /** Runs one line to the end; resolves with its output (already processed). */
  async submit(line: string): Promise<Output> {
    const text = line.trim();
    if (text === "") return { type: "none" };
    if (this.#running) return { type: "none" };
    this.history.add(text);
    this.add({ kind: "input", text });
    const controller = new AbortController();
    this.#running = controller;
    this.#set({ busy: { line: text, since: Date.now() } });
    let output: Output;
    try {
      output = await dispatch(text, {
        workspace: this.workspace,
        commands: this.commands,
        signal: controller.signal,
        emit: (o) => this.#process(o),
        interactive: this.interactive,
        width: this.width,
      });
    } finally {
      this.#running = undefined;
      this.#set({ busy: undefined });
    }
    this.#process(output);
    return output;
  }

  /**
   * Ctrl+C: stops the running line (a wait on a job stops; the job goes on). Pressed
   * again within SECOND_CTRL_C_MS of a stopped wait, it cancels that job: `/cancel j7`
   * runs as if typed, so the transcript shows what happened. False when it did nothing.
   */
  cancel(): boolean {
    if (this.#running) {
      this.#running.abort(new AbortError("Stopped with Ctrl+C."));
      return true;
    }
    const ref = this.interactive ? this.workspace.takeRecentStop() : undefined;
    if (ref === undefined) return false;
    void this.submit(`/cancel ${ref}`);
    return true;
  }

  complete(line: string): Completion {
    return complete(line, {
      commands: this.commands,
      context: this.workspace.completion(() => this.commands.map((c) => c.name)),
      jsNames: () => this.workspace.jsNames(),
    });
  }

  quit(): void {
    this.#running?.abort(new AbortError("Quitting."));
    this.#set({ quitting: true });
  }

  async close(): Promise<void> {
    this.#unsubscribe();
    await this.workspace.close();
  }

  /** The one place outputs become screen state (control characters made visible). */
  #process(raw: Output): void {
    const output = visibleOutput(raw);
    switch (output.type) {
      case "none":
        return;
      case "clear":
        this.#set({ items: [], epoch: this.#state.epoch + 1 });
        return;
      case "quit":
        this.quit();
        return;
      case "error":
        this.failures++;
        this.add({ kind: "output", output });
        return;
      default:
        this.add({ kind: "output", output });
    }
  }

  #set(change: Partial<ReplState>): void {
    this.#state = { ...this.#state, ...change };
    for (const listener of this.#listeners) listener();
  }
}
