/**
 * `session.preprocess` options -> a CreatePreprocessingRequest, checked with the same
 * zod schema the service uses, so a bad parameter fails here, naming the option the
 * caller wrote (`params.norm`, not `preprocessing_params.norm`).
 */
import { DEFAULT_ACCESS_TIER, type RecordType } from "../contract/blob.js";
import { createPreprocessingRequest, type CreatePreprocessingRequest } from "../contract/job.js";
import type { ParamsInput } from "../contract/params.js";
import type { PreprocessingType } from "../contract/transform-types.js";
import type { Secret } from "../client/secret.js";
import { keyOf, type BlobMetadataOptions, type UploadOptions } from "./blob.js";
import { fieldErrorsOf, localValidationError } from "./local-validation.js";
import type { RequestOptions } from "./request-options.js";
import type { ServiceProfile } from "./service-profile.js";

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

const MAX_JOB_SECONDS = 86_400;

/**
 * `request_timeout_seconds` from `jobTimeoutMs`, or else the deprecated `timeout`
 * (seconds, checked by the schema under its own name). A ValidationError naming
 * `jobTimeoutMs` when it is not a whole number of seconds from 1 to 86400.
 */
function jobTimeoutSeconds(options: PreprocessOptions): number | undefined {
  const ms = options.jobTimeoutMs;
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- the alias keeps working
  if (ms === undefined) return options.timeout;
  if (!(Number.isInteger(ms) && ms % 1000 === 0 && ms >= 1000 && ms <= MAX_JOB_SECONDS * 1000)) {
    throw localValidationError(
      {
        jobTimeoutMs: [
          `must be a whole number of seconds from 1 s to 24 h, in ms: 1000 to ${MAX_JOB_SECONDS * 1000} in steps of 1000 (got ${ms})`,
        ],
      },
      `${options.type} options`,
    );
  }
  return ms / 1000;
}

export interface BuiltRequest {
  readonly request: CreatePreprocessingRequest;
  /** The key of each output (undefined: not encrypted), in output order. */
  readonly outputKeys: ReadonlyArray<Secret | undefined>;
  /** The format of each output, in output order (for a service whose result names only blob ids). */
  readonly outputRecordTypes: readonly RecordType[];
  /** The feature columns asked for; empty: every numeric column. */
  readonly featureColumns: readonly string[];
}

const PLACEHOLDER_ID = "00000000-0000-4000-8000-000000000000";

export interface InputRef {
  readonly modelId: string;
  readonly blobId: string;
  readonly name: string;
  readonly recordType: RecordType;
  /** The outputs' format where the caller names none (./format-cost.ts); default the input's. */
  readonly outputRecordType?: RecordType | undefined;
  readonly key: Secret | undefined;
  /** The service's words for record types and access tiers; mdps's own without one. */
  readonly profile?: ServiceProfile | undefined;
}

/** Checks the options before anything is uploaded (the input blob id is a placeholder). */
export function checkPreprocessOptions(options: PreprocessOptions, modelId: string): void {
  buildPreprocessingRequest(options, {
    modelId,
    blobId: PLACEHOLDER_ID,
    name: "input",
    recordType: "csv",
    key: undefined,
  });
}

export function buildPreprocessingRequest(options: PreprocessOptions, input: InputRef): BuiltRequest {
  const timeoutSeconds = jobTimeoutSeconds(options);
  const outputs: readonly OutputOptions[] =
    options.outputs === undefined
      ? [{}]
      : Array.isArray(options.outputs)
        ? (options.outputs as readonly OutputOptions[])
        : [options.outputs as OutputOptions];
  const outputKeys = outputs.map((o) => (o.encrypt === undefined ? input.key : keyOf(o.encrypt)));
  const request: CreatePreprocessingRequest = {
    model_id: input.modelId,
    input_blob_id: input.blobId,
    ...(input.key ? { input_encryption_key: input.key.reveal() } : {}),
    preprocessing_type: options.type,
    preprocessing_params: options.params ?? {},
    feature_columns: [...(options.columns ?? [])],
    ...(timeoutSeconds !== undefined ? { request_timeout_seconds: timeoutSeconds } : {}),
    output: outputs.map((o, i) => ({
      name: o.name ?? `${stripExtension(input.name)}-${options.type}${outputs.length > 1 ? `-${i + 1}` : ""}`,
      ...(o.description !== undefined ? { description: o.description } : {}),
      record_type: o.recordType ?? input.outputRecordType ?? input.recordType,
      ...(o.accessTier !== undefined ? { access_tier: o.accessTier } : {}),
      ...(o.tags !== undefined ? { tags: [...o.tags] } : {}),
      ...(outputKeys[i] ? { encryption_key: outputKeys[i].reveal() } : {}),
    })),
  };
  const parsed = createPreprocessingRequest.safeParse(request);
  if (!parsed.success) {
    throw localValidationError(fieldErrorsOf(parsed.error.issues, callerPath), `${options.type} options`);
  }
  // Checked in mdps's words; sent in the service's where the caller gave them.
  const wire: CreatePreprocessingRequest = {
    ...request,
    output: request.output.map((o, i) => {
      const given = outputs[i] ?? {};
      const recordTypeWord = given.recordTypeWord ?? input.profile?.recordTypeWord(o.record_type as RecordType);
      // Always named: the interface shows the field, and a service may require it.
      const accessTier = given.accessTier ?? DEFAULT_ACCESS_TIER;
      return {
        ...o,
        ...(recordTypeWord !== undefined ? { record_type: recordTypeWord } : {}),
        access_tier: given.accessTierWord ?? input.profile?.accessTierWord(accessTier) ?? accessTier,
      };
    }),
  };
  return {
    request: wire,
    outputKeys,
    outputRecordTypes: outputs.map((o) => o.recordType ?? input.outputRecordType ?? input.recordType),
    featureColumns: [...(options.columns ?? [])],
  };
}

const RENAMES: Array<[RegExp, string]> = [
  [/^preprocessing_params/, "params"],
  [/^preprocessing_type/, "type"],
  [/^feature_columns/, "columns"],
  // Only the deprecated `timeout` reaches the schema unchecked: jobTimeoutMs is checked first.
  [/^request_timeout_seconds/, "timeout"],
  [/^output/, "outputs"],
  [/\.record_type$/, ".recordType"],
  [/\.access_tier$/, ".accessTier"],
  [/\.encryption_key$/, ".encrypt"],
];

/** A request field path in the names the caller wrote. */
export function callerPath(path: string): string {
  return RENAMES.reduce((p, [from, to]) => p.replace(from, to), path);
}

function stripExtension(name: string): string {
  return name.replace(/\.(csv|json|arrow|feather|ipc|parquet|pq)$/i, "");
}
