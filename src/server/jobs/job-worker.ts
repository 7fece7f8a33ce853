/**
 * Worker thread entry: runs one job at a time for the main thread's JobRunner and
 * reports progress (throttled), log lines and the outcome as messages.
 */
import { parentPort } from "node:worker_threads";
import { describeFailure } from "./failure.js";
import type { RunJobMessage, WorkerMessage } from "./messages.js";
import { runPreprocessing } from "./preprocessing-run.js";

const port = parentPort;
if (!port) throw new Error("job-worker.ts must run in a worker thread");

const PROGRESS_INTERVAL_MS = 100;

function send(message: WorkerMessage): void {
  port!.postMessage(message);
}

port.on("message", (job: RunJobMessage) => {
  let lastPhase = "";
  let lastSent = 0;
  const reporter = {
    progress(phase: Extract<WorkerMessage, { type: "progress" }>["phase"], fraction: number) {
      const now = Date.now();
      if (phase === lastPhase && now - lastSent < PROGRESS_INTERVAL_MS) return;
      lastPhase = phase;
      lastSent = now;
      send({ type: "progress", phase, progress: fraction });
    },
    log(level: Extract<WorkerMessage, { type: "log" }>["level"], message: string) {
      send({ type: "log", level, message });
    },
  };
  runPreprocessing(job, reporter).then(
    (done) => send(done),
    (err: unknown) => send({ type: "failed", ...describeFailure(err) }),
  );
});
