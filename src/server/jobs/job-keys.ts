import type { JobErrorBody } from "../domain/job-rows.js";

/** Keys of one job, held in memory only, from submit until the job ends. */
export interface JobKeys {
  input: Buffer | null;
  outputs: Array<Buffer | null>;
}

export const KEYS_LOST: JobErrorBody = {
  title: "Encryption keys lost",
  detail:
    "The job was interrupted by a service restart. Its encryption keys were held only in memory (the service never stores keys), so it cannot run again. Submit the job again with the keys.",
};

/**
 * Whether the request's input key fits the input blob: a key for a plain blob, or no
 * key for an encrypted one, refuses the run with a message saying which.
 */
export function inputKeyRefusal(inputEncrypted: boolean, keys: JobKeys | null): JobErrorBody | null {
  if (inputEncrypted && !keys?.input) {
    return {
      title: "Input is encrypted",
      detail:
        "The input blob is encrypted, but the request has no input_encryption_key. Submit again with the blob's key.",
    };
  }
  if (!inputEncrypted && keys?.input) {
    return {
      title: "Input is not encrypted",
      detail:
        "The request has an input_encryption_key, but the input blob is not encrypted. Submit again without input_encryption_key.",
    };
  }
  return null;
}
