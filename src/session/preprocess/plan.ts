/**
 * `session.preprocess` options resolved once, before anything is read or sent: the
 * transform's params checked (with "did you mean"), the job id, the time limit, the
 * outputs as a list and their keys, the encryption envelope, and every field checked
 * with the zod schema the service uses, naming the option the caller wrote (`params.norm`,
 * not `preprocessing_params.norm`). Preflight, upload and send take the plan; the request
 * itself is made from it once the input blob exists (`requestFor`).
 */
import { MAX_BLOB_NAME, type RecordType } from "../../core/contract/blob.js";
import { outputRequestFields } from "../../core/contract/blob-fields.js";
import { uuid } from "../../core/contract/common.js";
import { preprocessingRequestFields, type CreatePreprocessingRequest } from "../../core/contract/job.js";
import { snakeCase } from "../../core/contract/normalize.js";
import { checkParams } from "../../core/contract/param-issues.js";
import type { PreprocessingType } from "../../core/contract/transform-types.js";
import { ConfigError } from "../../client/errors.js";
import type { Secret } from "../../client/secret.js";
import { keyOf } from "../blob.js";
import { explainIssues, fieldErrorsOf } from "../../core/errors/zod-issues.js";
import { validationBeforeSending } from "../validation-before-sending.js";
import { PreflightError } from "../preflight/preflight-error.js";
import type { ServiceProfile } from "../../client/vendor/service-profile.js";
import { outputsOf, requestTimeoutOf, type OutputOptions, type PreprocessOptions } from "./options.js";

export interface PreprocessPlan<T extends PreprocessingType = PreprocessingType> {
  /** The options as given: the upload's options and the signal come from here. */
  readonly options: PreprocessOptions<T>;
  readonly modelId: string;
  readonly type: T;
  readonly params: Readonly<Record<string, unknown>>;
  /** The feature columns asked for; empty: every numeric column. */
  readonly columns: readonly string[];
  /** At least one. */
  readonly outputs: readonly OutputOptions[];
  /** The key the input is (a blob) or will be (an upload) encrypted with. */
  readonly inputKey: Secret | undefined;
  /** Each output's key (undefined: not encrypted), in output order. */
  readonly outputKeys: ReadonlyArray<Secret | undefined>;
  /** `request_timeout_seconds`; undefined: the service's default. */
  readonly jobTimeoutSeconds: number | undefined;
  /** Each HTTP attempt's limit, ms. */
  readonly requestTimeoutMs: number | undefined;
  readonly jobId: string | undefined;
  /** The format the caller named: the first output's that names one, else the upload's. */
  readonly chosenRecordType: RecordType | undefined;
}

export interface PlanContext {
  readonly modelId: string;
  readonly profile: ServiceProfile;
  /** The service's address, for the envelope's error. */
  readonly baseUrl: string;
  /** The input is a stored blob with this key (undefined: not encrypted); absent: the input is uploaded. */
  readonly blobKey?: { readonly key: Secret | undefined } | undefined;
}

const PLACEHOLDER_ID = "00000000-0000-4000-8000-000000000000";
const MAX_JOB_SECONDS = 86_400;

/** Resolves and checks `options` once; throws a PreflightError, ValidationError or ConfigError naming the option. */
export function planPreprocess<T extends PreprocessingType>(
  options: PreprocessOptions<T>,
  context: PlanContext,
): PreprocessPlan<T> {
  // Names first, with "did you mean": a typo is a local error, never a 400 from the service.
  // scikit-learn's names in any spelling (`withMean` is with_mean); the profile spells them on the wire.
  const params: Readonly<Record<string, unknown>> = snakeKeys(options.params ?? {});
  const paramProblems = checkParams(options.type, params);
  if (paramProblems.length > 0) throw new PreflightError(paramProblems);
  if (options.jobId !== undefined && !uuid.safeParse(options.jobId).success) {
    throw validationBeforeSending({ jobId: ["must be a lower-case UUID"] });
  }
  const outputs = outputsOf(options);
  assertEnvelope(context, [options.encrypt, ...outputs.map((o) => o.encrypt)]);
  const inputKey = context.blobKey ? context.blobKey.key : keyOf(options.encrypt);
  const plan: PreprocessPlan<T> = {
    options,
    modelId: context.modelId,
    type: options.type,
    params,
    columns: [...(options.columns ?? [])],
    outputs,
    inputKey,
    outputKeys: outputs.map((o) => (o.encrypt === undefined ? inputKey : keyOf(o.encrypt))),
    jobTimeoutSeconds: jobTimeoutSeconds(options),
    requestTimeoutMs: requestTimeoutOf(options),
    jobId: options.jobId,
    chosenRecordType: outputs.find((o) => o.recordType !== undefined)?.recordType ?? options.upload?.recordType,
  };
  const checked = preprocessingRequestFields.safeParse(
    canonicalRequest(plan, { blobId: PLACEHOLDER_ID, name: "input", recordType: "csv" }),
  );
  if (!checked.success) {
    throw validationBeforeSending(
      fieldErrorsOf(explainIssues(checked.error.issues), (path) => callerPath(path.map(String).join("."))),
      `${options.type} options`,
    );
  }
  return plan;
}

export interface PlannedInput {
  readonly blobId: string;
  readonly name: string;
  readonly recordType: RecordType;
  /** The outputs' format where the caller names none (./output-format.ts); default the input's. */
  readonly outputRecordType?: RecordType | undefined;
}

export interface BuiltRequest {
  /** In the service's words for record types and access tiers. */
  readonly request: CreatePreprocessingRequest;
  /** The format of each output, in output order (for a service whose result names only blob ids). */
  readonly outputRecordTypes: readonly RecordType[];
}

/** The request for the planned job on its input blob, in the service's words (the profile's). */
export function requestFor(plan: PreprocessPlan, input: PlannedInput, profile: ServiceProfile): BuiltRequest {
  const request = canonicalRequest(plan, input);
  return {
    request: {
      ...request,
      preprocessing_params: profile.paramsOnWire(request.preprocessing_params ?? {}),
      output: request.output.map((o, i) => {
        // The access tier is always named: the interface shows the field, and a service may require it.
        const words = profile.wordsFor({ ...plan.outputs[i], recordType: o.record_type as RecordType });
        return { ...o, record_type: words.recordTypeWord, access_tier: words.accessTierWord };
      }),
    },
    outputRecordTypes: plan.outputs.map((o) => outputRecordType(o, input)),
  };
}

/** The request in mdps's words: what the schema checks. */
function canonicalRequest(plan: PreprocessPlan, input: PlannedInput): CreatePreprocessingRequest {
  const { outputs, outputKeys } = plan;
  return {
    model_id: plan.modelId,
    input_blob_id: input.blobId,
    ...(plan.inputKey ? { input_encryption_key: plan.inputKey.reveal() } : {}),
    preprocessing_type: plan.type,
    preprocessing_params: plan.params,
    feature_columns: [...plan.columns],
    ...(plan.jobTimeoutSeconds !== undefined ? { request_timeout_seconds: plan.jobTimeoutSeconds } : {}),
    output: outputs.map((o, i) => ({
      name: o.name ?? defaultOutputName(input.name, plan.type, outputs.length > 1 ? i + 1 : undefined),
      ...outputRequestFields(o),
      record_type: outputRecordType(o, input),
      ...(outputKeys[i] ? { encryption_key: outputKeys[i].reveal() } : {}),
    })),
  };
}

function snakeKeys(params: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).map(([key, value]) => [snakeCase(key), value]));
}

function outputRecordType(output: OutputOptions, input: PlannedInput): RecordType {
  return output.recordType ?? input.outputRecordType ?? input.recordType;
}

/**
 * `<input name>-<type>` (`-1`, `-2`... with several outputs), the input's part cut so a
 * default is never too long (by whole characters: an emoji is not split in two).
 */
export function defaultOutputName(inputName: string, type: string, index: number | undefined): string {
  const suffix = `-${type}${index === undefined ? "" : `-${index}`}`;
  let base = "";
  for (const char of stripExtension(inputName)) {
    if (base.length + char.length + suffix.length > MAX_BLOB_NAME) break;
    base += char;
  }
  return `${base}${suffix}`;
}

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
    throw validationBeforeSending(
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

/**
 * Encryption uses mdps's envelope, which only a service that declares `envelope-v1` (or
 * is said to) can read: a ConfigError when any of `asked` asks for it elsewhere.
 */
export function assertEnvelope(
  service: { readonly profile: ServiceProfile; readonly baseUrl: string },
  asked: readonly unknown[],
): void {
  const asks = (encrypt: unknown): boolean => encrypt !== undefined && encrypt !== false;
  if (!asked.some(asks) || service.profile.declares("envelope-v1")) return;
  throw new ConfigError(
    `The service at ${service.baseUrl} does not declare mdps's encryption envelope (envelope-v1) in health's capabilities, ` +
      `so it could not read what this session encrypts. Leave out encrypt, or, if the service does read the envelope, ` +
      `add "envelope-v1" to the capabilities option or the profile's "capabilities".`,
  );
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
