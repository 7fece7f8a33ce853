import type {
  FittedStateJson,
  JobPhase,
  JobWarning,
  LogLevel,
  PreprocessingType,
  RecordType,
} from "../../core/contract/index.js";

/** Main thread -> worker: everything one run needs. Keys travel only in memory. */
export interface RunJobMessage {
  type: "run";
  jobId: string;
  /** A link to the input's bytes that the main thread made for this run. */
  inputPath: string;
  inputRecordType: RecordType;
  inputKey: Uint8Array | null;
  preprocessingType: PreprocessingType;
  params: Record<string, unknown>;
  featureColumns: string[];
  outputs: Array<{ name: string; recordType: RecordType; tempPath: string; key: Uint8Array | null }>;
}

export interface JobFailure {
  title: string;
  detail: string;
}

export interface JobDone {
  type: "done";
  rows: number;
  columns: string[];
  featureColumns: string[];
  fitted: FittedStateJson;
  outputs: Array<{ sizeBytes: number; sha256: string }>;
  /** scikit-learn's warnings on this data (the engine's; also logged at level warning). */
  warnings: JobWarning[];
}

/** Worker -> main thread. */
export type WorkerMessage =
  | { type: "progress"; phase: JobPhase; progress: number }
  | { type: "log"; level: LogLevel; message: string }
  | JobDone
  | { type: "failed"; error: JobFailure; logMessage: string };
