/**
 * The part of the Session the REPL uses, written as structural types so the REPL
 * states exactly what it relies on (and reads optional extras defensively).
 */
import type { JobRecord } from "../../src/index.js";

export interface JobUpdateSource {
  readonly id: string;
  /** Resolves with the final record; may throw JobFailedError when the job failed. */
  wait(options: { onUpdate?: (record: JobRecord) => void; signal?: AbortSignal }): Promise<unknown>;
  /** scikit-learn's warnings, known once wait resolved (Session's Job has them; another source may not). */
  readonly warnings?: ReadonlyArray<{
    readonly code: string;
    readonly message: string;
    readonly column: string | null;
  }>;
}
