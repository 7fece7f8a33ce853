import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { JobDone, JobFailure, RunJobMessage, WorkerMessage } from "./messages.js";

export type RunOutcome =
  | { kind: "done"; done: JobDone }
  | { kind: "failed"; error: JobFailure; logMessage: string }
  | { kind: "timeout" }
  | { kind: "crash"; message: string }
  /** Stopped on request (the job was cancelled or its lease lost); the thread is being replaced. */
  | { kind: "stopped" };

// From dist the worker is job-worker.js. Under vitest (running src/*.ts) it is the .ts
// file: Node 20 does not apply `--import tsx` loader hooks inside worker threads, so
// the worker registers tsx's hooks itself (the require hook for the .ts entry, the
// import hooks for the format modules the registry loads with import()) and then
// requires the entry. Messages sent meanwhile wait in the worker's port.
const here = import.meta.url;
const fromSource = here.endsWith(".ts");

function newWorker(name: string): Worker {
  if (!fromSource) return new Worker(new URL("./job-worker.js", here), { name });
  const require = createRequire(here);
  // The ESM build of tsx's import API: its CommonJS build does not find its own hooks from an eval'd worker.
  const esmApi = pathToFileURL(require.resolve("tsx/esm/api")).href.replace(/\.cjs$/, ".mjs");
  const bootstrap = `require(${JSON.stringify(require.resolve("tsx/cjs/api"))}).register();
import(${JSON.stringify(esmApi)}).then((api) => {
  api.register();
  require(${JSON.stringify(fileURLToPath(new URL("./job-worker.ts", here)))});
});`;
  return new Worker(bootstrap, { eval: true, name });
}

/**
 * One worker thread that runs jobs one at a time. A run that times out or crashes
 * leaves the thread in an unknown state, so it is terminated and a fresh one started.
 * The thread starts at the first run, not with the service: loading the engine and
 * Arrow in it costs a few hundred ms of CPU that a REPL or service never running a job
 * would pay at start.
 */
export class WorkerSlot {
  private worker: Worker | undefined;
  private closed = false;
  busy = false;

  constructor(readonly replicaName: string) {}

  private spawn(): Worker {
    const worker = newWorker(this.replicaName);
    // A worker that dies while idle is replaced on its next run; never crash the service.
    worker.on("error", () => {});
    return worker;
  }

  /** False once the thread has died; a thread not started yet is started by the next run. */
  get alive(): boolean {
    return this.worker === undefined || this.worker.threadId >= 0;
  }

  run(
    message: RunJobMessage,
    onEvent: (m: Extract<WorkerMessage, { type: "progress" | "log" }>) => void,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<RunOutcome> {
    if (this.closed) return Promise.resolve({ kind: "crash", message: "the service is stopping" });
    if (signal?.aborted) return Promise.resolve({ kind: "stopped" });
    const worker = (this.worker ??= this.spawn());
    return new Promise((resolve) => {
      let settled = false;
      const settle = (outcome: RunOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        worker.off("message", onMessage);
        worker.off("error", onError);
        worker.off("exit", onExit);
        signal?.removeEventListener("abort", onAbort);
        resolve(outcome);
      };
      // Terminating the thread is the only way to stop a transform mid-loop; the
      // caller's restart() then waits for the old thread and starts a fresh one.
      const onAbort = () => settle({ kind: "stopped" });
      const onMessage = (m: WorkerMessage) => {
        if (m.type === "done") settle({ kind: "done", done: m });
        else if (m.type === "failed") settle({ kind: "failed", error: m.error, logMessage: m.logMessage });
        else onEvent(m);
      };
      const onError = (err: Error) => settle({ kind: "crash", message: err.message });
      const onExit = (code: number) => settle({ kind: "crash", message: `the worker thread exited with code ${code}` });
      const timer = setTimeout(() => settle({ kind: "timeout" }), timeoutMs);
      worker.on("message", onMessage);
      worker.on("error", onError);
      worker.on("exit", onExit);
      signal?.addEventListener("abort", onAbort, { once: true });
      worker.postMessage(message);
    });
  }

  /** Stops the thread (whatever it is doing) and starts a fresh one. */
  async restart(): Promise<void> {
    await this.worker?.terminate();
    if (!this.closed) this.worker = this.spawn();
  }

  /** Terminates the thread; a run in progress resolves as a crash. */
  async close(): Promise<void> {
    this.closed = true;
    await this.worker?.terminate();
  }
}
