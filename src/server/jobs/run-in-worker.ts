import type { RecordType } from "../../core/contract/index.js";
import type { JobKeys } from "./job-keys.js";
import type { RunJobMessage, WorkerMessage } from "./messages.js";
import type { StoredPreprocessingRequest } from "./submission.js";
import type { RunOutcome, WorkerSlot } from "./worker-slot.js";

export interface WorkerRun {
  slot: WorkerSlot;
  jobId: string;
  inputPath: string;
  inputRecordType: RecordType;
  request: StoredPreprocessingRequest;
  keys: JobKeys | null;
  /** One per output, in request order; the worker writes each output there. */
  tempPaths: readonly string[];
  onEvent: (event: Extract<WorkerMessage, { type: "progress" | "log" }>) => void;
  /** Aborting stops the run at once (the thread is terminated and replaced). */
  signal: AbortSignal;
}

export interface WorkerRunResult {
  outcome: RunOutcome;
  message: RunJobMessage;
  /** performance.now() when the worker got the job. */
  startedAt: number;
}

/** Runs the job on the slot's thread; a timeout or crash leaves a fresh thread behind. */
export async function runInWorker(run: WorkerRun): Promise<WorkerRunResult> {
  const { slot, request, keys } = run;
  if (!slot.alive) await slot.restart();
  const message: RunJobMessage = {
    type: "run",
    jobId: run.jobId,
    inputPath: run.inputPath,
    inputRecordType: run.inputRecordType,
    inputKey: keys?.input ?? null,
    preprocessingType: request.preprocessing_type,
    params: request.preprocessing_params,
    featureColumns: request.feature_columns,
    outputs: request.output.map((o, i) => {
      const tempPath = run.tempPaths[i];
      if (tempPath === undefined) throw new Error(`no temp path for output ${i}`);
      return {
        name: o.name,
        recordType: o.record_type ?? run.inputRecordType,
        tempPath,
        key: keys?.outputs[i] ?? null,
      };
    }),
  };
  const startedAt = performance.now();
  const outcome = await slot.run(message, run.onEvent, request.request_timeout_seconds * 1000, run.signal);
  // A closed slot does not respawn, so this is safe while the service stops.
  if (outcome.kind !== "done" && outcome.kind !== "failed") await slot.restart();
  return { outcome, message, startedAt };
}
