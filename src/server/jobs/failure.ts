import type { JobFailure } from "./messages.js";
import { fileFaultFailure } from "./storage-failure.js";

/**
 * Turns what a run threw into the job's `{title, detail}`. Errors of our own modules
 * (decryption, format, engine) carry messages written for users and no secrets;
 * a storage fault met writing the outputs (a full disk, a file-size limit) names its
 * cause; anything else is an internal error whose message goes to the log only.
 */
export function describeFailure(err: unknown): { error: JobFailure; logMessage: string } {
  const name = err instanceof Error ? err.name : "";
  // Messages are sentences of their own; the details below add one after them.
  const message = (err instanceof Error ? err.message : String(err)).replace(/[.\s]+$/, "");
  switch (name) {
    case "DecryptionError":
      return {
        error: {
          title: "Decryption failed",
          detail: `The input blob could not be decrypted with input_encryption_key (${message}). Send the key the blob was encrypted with.`,
        },
        logMessage: `decryption failed: ${message}`,
      };
    case "FormatError":
      return {
        error: {
          title: "The input could not be read",
          detail: `${message}. Fix the dataset or the request's feature_columns and submit again.`,
        },
        logMessage: `reading the input failed: ${message}`,
      };
    case "EngineError":
      return {
        error: {
          title: "The transform could not be applied",
          detail: `${message}. Check preprocessing_params against the data and submit again.`,
        },
        logMessage: `the transform failed: ${message}`,
      };
    default: {
      const storage = fileFaultFailure(err);
      if (storage) return { error: storage, logMessage: `writing the outputs failed: ${message}` };
      return {
        error: {
          title: "Internal error",
          detail:
            "The job worker hit an unexpected error. The job's log has the details; retry, and report it if it persists.",
        },
        logMessage: `internal error: ${message}`,
      };
    }
  }
}
