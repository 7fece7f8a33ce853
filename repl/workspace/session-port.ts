/**
 * The part of the Session the REPL uses, written as structural types so the REPL
 * states exactly what it relies on (and reads optional extras defensively).
 */
import type { JobRecord } from "../../src/index.js";

export interface JobUpdateSource {
  readonly id: string;
  /** Resolves with the final record; may throw JobFailedError when the job failed. */
  wait(options: { onUpdate?: (record: JobRecord) => void; signal?: AbortSignal }): Promise<unknown>;
}
