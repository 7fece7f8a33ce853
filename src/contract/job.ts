import { z } from "zod";
import { blobRecord, recordType, accessTier, tag, DEFAULT_ACCESS_TIER } from "./blob.js";
import { timestamp, uuid } from "./common.js";
import { jobWarning } from "./job-warning.js";
import { paramsSchemas } from "./params.js";
import { PREPROCESSING_TYPES, type PreprocessingType } from "./transform-types.js";

/** What a running job is doing; a free string on the wire, these are the reference service's. */
export const JOB_PHASES = [
  "queued",
  "reading",
  "decrypting",
  "parsing",
  "fitting",
  "transforming",
  "writing",
  "done",
] as const;
export type JobPhase = (typeof JOB_PHASES)[number];

export const JOB_TYPES = ["preprocessing"] as const;

/** `limit` of job get and logs: 1..10000, default 1000. */
export const limitQuery = z.coerce
  .number({ error: "must be a whole number from 1 to 10000" })
  .int("must be a whole number from 1 to 10000")
  .min(1, "must be at least 1 (the newest `limit` entries are returned)")
  .max(10_000, "must be at most 10000")
  .default(1000);

export const REDACTED = "***";

export const preprocessingOutputRequest = z.strictObject({
  name: z.string().min(1).max(256),
  description: z.string().max(4096).optional(),
  /** Defaults to the input blob's record type. */
  record_type: recordType.optional(),
  access_tier: accessTier.default(DEFAULT_ACCESS_TIER),
  tags: z.array(tag).default([]),
  encryption_key: z.string().optional(),
});
export type PreprocessingOutputRequest = z.input<typeof preprocessingOutputRequest>;

const createPreprocessingRequestShape = z.strictObject({
  model_id: uuid,
  input_blob_id: uuid,
  input_encryption_key: z.string().optional(),
  preprocessing_type: z.enum(PREPROCESSING_TYPES, {
    error: `must be one of ${PREPROCESSING_TYPES.join(", ")}`,
  }),
  preprocessing_params: z.record(z.string(), z.unknown()).default({}),
  feature_columns: z.array(z.string().min(1)).default([]),
  request_timeout_seconds: z
    .number({ error: "must be a whole number of seconds from 1 to 86400" })
    .int("must be a whole number of seconds")
    .min(1, "must be at least 1 second")
    .max(86_400, "must be at most 86400 seconds (24 hours)")
    .default(3600),
  output: z.array(preprocessingOutputRequest).min(1, "at least one output is required"),
});

/**
 * CreatePreprocessingRequest, with `preprocessing_params` checked against the schema of
 * its `preprocessing_type` and replaced by the parsed (defaults filled) parameters.
 */
export const createPreprocessingRequest = createPreprocessingRequestShape.transform((req, ctx) => {
  const schema = paramsSchemas[req.preprocessing_type as PreprocessingType];
  const parsed = schema.safeParse(req.preprocessing_params);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      ctx.addIssue({ ...issue, path: ["preprocessing_params", ...issue.path] } as never);
    }
    return z.NEVER;
  }
  return { ...req, preprocessing_params: parsed.data as Record<string, unknown> };
});
export type CreatePreprocessingRequest = z.input<typeof createPreprocessingRequestShape>;
export type ParsedPreprocessingRequest = z.output<typeof createPreprocessingRequest>;

export const sendJobRequest = z.strictObject({
  job_id: uuid,
  model_id: uuid,
  job_type: z.string().min(1),
  payload: z.unknown(),
});
export type SendJobRequest = z.infer<typeof sendJobRequest>;

export const jobEvent = z.looseObject({
  timestamp,
  status: z.string(),
  phase: z.string().nullable(),
  progress: z.number(),
  message: z.string().nullable(),
});
export type JobEvent = z.infer<typeof jobEvent>;

export const jobError = z.looseObject({ title: z.string(), detail: z.string() });

export const jobRecord = z.looseObject({
  id: uuid,
  model_id: uuid,
  job_type: z.string(),
  status: z.string(),
  progress: z.number(),
  phase: z.string().nullable(),
  created_at: timestamp,
  started_at: timestamp.nullable(),
  finished_at: timestamp.nullable(),
  attempts: z.number().int(),
  error: jobError.nullable(),
  request: z.unknown(),
  events: z.array(jobEvent),
});
export type JobRecord = z.infer<typeof jobRecord>;

export const LOG_LEVELS = ["debug", "info", "warning", "error"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** JobExecutionLogContainer keeps the interface's camelCase names. */
export const logContainer = z.looseObject({
  hostname: z.string(),
  replicaName: z.string(),
  processId: z.number().int(),
});
export type JobExecutionLogContainer = z.infer<typeof logContainer>;

export const logMessage = z.looseObject({
  timestamp,
  level: z.string(),
  message: z.string(),
  container: logContainer,
});
export type JobExecutionLogMessage = z.infer<typeof logMessage>;

export const logDetails = z.looseObject({
  job_id: uuid,
  status: z.string(),
  messages: z.array(logMessage),
  truncated: z.boolean(),
});
export type JobExecutionLogDetails = z.infer<typeof logDetails>;

/**
 * Fitted state as JSON: scikit-learn attribute names, one entry per feature column
 * (NaN written as null). The engine defines the exact shape per transform.
 */
export const fittedState = z.looseObject({
  type: z.enum(PREPROCESSING_TYPES),
  params: z.record(z.string(), z.unknown()),
  feature_names_in_: z.array(z.string()),
  n_features_in_: z.number().int(),
});
export type FittedStateJson = z.infer<typeof fittedState>;

export const jobResult = z.looseObject({
  job_id: uuid,
  status: z.string(),
  rows: z.number().int(),
  columns: z.array(z.string()),
  feature_columns: z.array(z.string()).optional(),
  outputs: z.array(blobRecord),
  fitted: fittedState,
  duration_ms: z.number(),
  /** scikit-learn 1.2.1's warnings on the same data and parameters (docs/warnings.md); absent: none reported. */
  warnings: z.array(jobWarning).optional(),
});
export type JobResult = z.infer<typeof jobResult>;
export { jobWarning, type JobWarning } from "./job-warning.js";
