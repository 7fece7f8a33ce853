/**
 * The two send bodies, checked field by field: CreatePreprocessingRequest (snake_case, as the
 * interface lists it) and SendJobRequest, whose only job_type here is "Preprocessing" (or the
 * `jobTypes` switch's word) with a CreatePreprocessingRequest as payload. Every refusal is a 400 `{ message }` naming the field.
 */
import { badRequest, notFound } from "./errors.js";
import type { Settings } from "./switches.js";
import { paramsOfWire } from "./wire-style.js";
import { PREPROCESSING_TYPES, type PreprocessingType } from "./transforms.js";

export interface OutputSpec {
  readonly name: string;
  readonly description: string | undefined;
  readonly recordType: string;
  readonly accessTier: string;
  readonly tags: readonly string[];
}

export interface PreprocessingSpec {
  readonly inputBlobId: string;
  readonly preprocessingType: PreprocessingType;
  readonly params: Readonly<Record<string, unknown>>;
  readonly featureColumns: readonly string[];
  readonly timeoutSeconds: number;
  /** Empty: one default Csv/Hot output named after the input. */
  readonly outputs: readonly OutputSpec[];
  /** A `job_id` in the body; not in the interface's shape, used only by `idempotentSend`. */
  readonly jobId: string | undefined;
}

export interface GenericJobSpec {
  readonly jobId: string;
  readonly spec: PreprocessingSpec;
}

const MAX_TIMEOUT_SECONDS = 86_400;
const DEFAULT_TIMEOUT_SECONDS = 3_600;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Body = Readonly<Record<string, unknown>>;

export function parsePreprocessingRequest(
  body: unknown,
  modelId: string,
  settings: Settings,
  prefix = "",
  modelIdRequired = true,
): PreprocessingSpec {
  const fields = object(body, prefix === "" ? "the request body" : prefix.slice(0, -1));
  const field = (name: string): unknown => fields[name];
  const at = (name: string): string => prefix + name;
  const model = optionalString(field("model_id"), at("model_id"));
  if (model === undefined && modelIdRequired) throw badRequest(`${at("model_id")} is required`);
  if (model !== undefined) checkModel(model, modelId, at("model_id"));
  const type = requiredString(field("preprocessing_type"), at("preprocessing_type"));
  if (!isPreprocessingType(type)) {
    throw badRequest(`${at("preprocessing_type")} '${type}' is not one of ${PREPROCESSING_TYPES.join(", ")}`);
  }
  optionalString(field("input_encryption_key"), at("input_encryption_key")); // accepted, not used
  const jobId = optionalString(field("job_id"), at("job_id"));
  // The parameters are read into their type first (Jackson refuses an unknown property while
  // reading the body), before any field is checked for presence.
  const params = paramsOfWire(
    type,
    optionalObject(field("preprocessing_params"), at("preprocessing_params")),
    settings,
    badRequest,
  );
  return {
    inputBlobId: uuid(requiredString(field("input_blob_id"), at("input_blob_id")), at("input_blob_id")),
    preprocessingType: type,
    params,
    featureColumns: featureColumns(field("feature_columns"), at("feature_columns")),
    timeoutSeconds: timeoutSeconds(field("request_timeout_seconds"), at("request_timeout_seconds")),
    outputs: outputs(field("output"), at("output"), settings),
    jobId,
  };
}

export function parseSendJobRequest(body: unknown, modelId: string, settings: Settings): GenericJobSpec {
  const fields = object(body, "the request body");
  const jobId = uuid(requiredString(fields["job_id"], "job_id"), "job_id");
  checkModel(requiredString(fields["model_id"], "model_id"), modelId, "model_id");
  const jobType = requiredString(fields["job_type"], "job_type");
  if (!settings.jobTypes.includes(jobType)) {
    throw badRequest(`job_type '${jobType}' is not one of ${settings.jobTypes.join(", ")}`);
  }
  const payload = decodePayload(fields["payload"]);
  return { jobId, spec: parsePreprocessingRequest(payload, modelId, settings, "payload.", false) };
}

/** The payload's type is not given: an object, or a string holding a JSON object. */
function decodePayload(payload: unknown): unknown {
  if (payload === undefined || payload === null) throw badRequest("payload is required");
  if (typeof payload !== "string") return payload;
  try {
    return JSON.parse(payload) as unknown;
  } catch {
    throw badRequest("payload is a string but not JSON");
  }
}

function isPreprocessingType(value: string): value is PreprocessingType {
  return (PREPROCESSING_TYPES as readonly string[]).includes(value);
}

function checkModel(value: string, modelId: string, name: string): void {
  uuid(value, name);
  if (value.toLowerCase() !== modelId.toLowerCase()) throw notFound(`model ${value} not found`);
}

function featureColumns(value: unknown, name: string): string[] {
  if (value === undefined || value === null) throw badRequest(`${name} is required`);
  if (!Array.isArray(value) || value.length === 0) throw badRequest(`${name} must be a non-empty array`);
  const columns = value.map((column: unknown, index) => {
    if (typeof column !== "string" || column === "") {
      throw badRequest(`${name}[${index}] must be a column name (a non-empty string)`);
    }
    return column;
  });
  if (new Set(columns).size !== columns.length) throw badRequest(`${name} names a column twice`);
  return columns;
}

function timeoutSeconds(value: unknown, name: string): number {
  if (value === undefined || value === null) return DEFAULT_TIMEOUT_SECONDS;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > MAX_TIMEOUT_SECONDS) {
    throw badRequest(`${name} must be an integer from 1 to ${MAX_TIMEOUT_SECONDS}`);
  }
  return value;
}

function outputs(value: unknown, name: string, settings: Settings): OutputSpec[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw badRequest(`${name} must be an array`);
  return value.map((item: unknown, index) => {
    const at = `${name}[${index}]`;
    const fields = object(item, at);
    const recordType = requiredString(fields["record_type"], `${at}.record_type`);
    const accessTier = requiredString(fields["access_tier"], `${at}.access_tier`);
    if (!settings.recordTypes.includes(recordType)) {
      throw badRequest(`${at}.record_type '${recordType}' is not one of ${settings.recordTypes.join(", ")}`);
    }
    if (!settings.accessTiers.includes(accessTier)) {
      throw badRequest(`${at}.access_tier '${accessTier}' is not one of ${settings.accessTiers.join(", ")}`);
    }
    optionalString(fields["encryption_key"], `${at}.encryption_key`); // accepted, not used
    return {
      name: requiredString(fields["name"], `${at}.name`),
      description: optionalString(fields["description"], `${at}.description`),
      recordType,
      accessTier,
      tags: stringArray(fields["tags"], `${at}.tags`),
    };
  });
}

function object(value: unknown, name: string): Body {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw badRequest(`${name} must be a JSON object`);
  }
  return value as Body;
}

function optionalObject(value: unknown, name: string): Body {
  return value === undefined || value === null ? {} : object(value, name);
}

function requiredString(value: unknown, name: string): string {
  if (value === undefined || value === null || value === "") throw badRequest(`${name} is required`);
  if (typeof value !== "string") throw badRequest(`${name} must be a string`);
  return value;
}

function optionalString(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw badRequest(`${name} must be a string`);
  return value;
}

function uuid(value: string, name: string): string {
  if (!UUID.test(value)) throw badRequest(`${name} must be a UUID`);
  return value;
}

function stringArray(value: unknown, name: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((v): v is string => typeof v === "string")) {
    throw badRequest(`${name} must be an array of strings`);
  }
  return value;
}
