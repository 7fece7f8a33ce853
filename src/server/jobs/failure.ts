import type { JobFailure } from "./messages.js";

/**
 * Turns what a run threw into the job's `{title, detail}`. Errors of our own modules
 * (decryption, format, engine) carry messages written for users and no secrets;
 * anything else is an internal error whose message goes to the log only.
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
    default:
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
