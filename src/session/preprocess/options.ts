/** What `session.preprocess` is asked: its options, as the caller writes them. */
import type { ParamsInput } from "../../core/contract/params.js";
import type { PreprocessingType } from "../../core/contract/transform-types.js";
import type { Secret } from "../../client/secret.js";
import type { BlobMetadataOptions, UploadOptions } from "../blob.js";
import type { RequestOptions } from "../request-options.js";

/**
 * One output blob of a job. Defaults: `name` `<input name>-<type>` (`-1`, `-2`... with
 * several outputs); `recordType` the input's; `encrypt` with the input's key when the
 * input is encrypted.
 */
export type OutputOptions = BlobMetadataOptions;

/**
 * Options of `session.preprocess`. `params` is typed per `type`: a misspelt or
 * mistyped parameter is a compile error, and checked again at run time. Durations are
 * in ms: `jobTimeoutMs` limits the job on the service, `requestTimeoutMs` each HTTP
 * attempt of the upload and the send.
 */
export interface PreprocessOptions<T extends PreprocessingType = PreprocessingType> extends RequestOptions {
  readonly type: T;
  /** scikit-learn's constructor parameters, snake_case; omitted ones take its defaults. */
  readonly params?: ParamsInput<T> | undefined;
  /** Feature columns; default every numeric column. Others pass through unchanged. */
  readonly columns?: readonly string[] | undefined;
  readonly outputs?: OutputOptions | readonly OutputOptions[] | undefined;
  /**
   * The job's time limit on the service, ms: a whole number of seconds from 1 s to
   * 24 h (1000 to 86400000), sent as `request_timeout_seconds`. Absent: nothing is sent
   * and the service's own default applies (1 h at mdps's service; the interface does not say).
   */
  readonly jobTimeoutMs?: number | undefined;
  /** Encrypt the input (and outputs) on this machine: `true` for a new key, or a key. */
  readonly encrypt?: boolean | string | Secret | undefined;
  /** A job id of your choice (UUID): sending the same job again returns the existing one. */
  readonly jobId?: string | undefined;
  /** How to upload the input when it is a DataFrame, path or bytes. */
  readonly upload?: Omit<UploadOptions, "encrypt" | "signal" | "timeoutMs"> | undefined;
  /**
   * @deprecated In seconds: use `jobTimeoutMs` (milliseconds). Still accepted for one
   * more minor version; `jobTimeoutMs` wins when both are given.
   */
  readonly timeout?: number | undefined;
  /**
   * @deprecated Use `requestTimeoutMs` (the same value, ms): each HTTP attempt, not the
   * job. Still accepted for one more minor version.
   */
  readonly timeoutMs?: number | undefined;
}

/** The per-attempt limit of `session.preprocess`'s requests: `requestTimeoutMs` or its deprecated alias. */
export function requestTimeoutOf(options: PreprocessOptions): number | undefined {
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- the alias keeps working
  return options.requestTimeoutMs ?? options.timeoutMs;
}

/** `outputs` as a list: one output (all defaults) when none is named. */
export function outputsOf(options: Pick<PreprocessOptions, "outputs">): readonly OutputOptions[] {
  const { outputs } = options;
  if (outputs === undefined) return [{}];
  return Array.isArray(outputs) ? (outputs as readonly OutputOptions[]) : [outputs as OutputOptions];
}
