import { z } from "zod";
import {
  blobRecord,
  recordType,
  accessTier,
  tag,
  DEFAULT_ACCESS_TIER,
  MAX_BLOB_NAME,
  type BlobRecord,
} from "./blob.js";
import { timestamp, uuid } from "./common.js";
import { normalizeJobRecord, normalizeJobResult, normalizeLogDetails } from "./normalize.js";
import { jobWarning } from "./job-warning.js";
import { explainParams } from "./param-issues.js";
import { paramsSchemas } from "./params.js";
import { PREPROCESSING_TYPES } from "./transform-types.js";

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
  name: z.string().min(1).max(MAX_BLOB_NAME),
  description: z.string().max(4096).optional(),
  /** Defaults to the input blob's record type. */
  record_type: recordType.optional(),
  access_tier: accessTier.default(DEFAULT_ACCESS_TIER),
  tags: z.array(tag).default([]),
  encryption_key: z.string().optional(),
});
export type PreprocessingOutputRequest = z.input<typeof preprocessingOutputRequest>;

/**
 * The request's fields, with `preprocessing_params` only a record: checking them against
 * their transform's schema is `createPreprocessingRequest`'s (and the client's checkParams').
 */
export const preprocessingRequestFields = z.strictObject({
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
export const createPreprocessingRequest = preprocessingRequestFields.transform((req, ctx) => {
  const schema = paramsSchemas[req.preprocessing_type];
  const parsed = schema.safeParse(req.preprocessing_params);
  if (!parsed.success) {
    // In the words the Session and the REPL use for the same mistake, nearest name included.
    for (const { path, message } of explainParams(
      req.preprocessing_type,
      parsed.error.issues,
      req.preprocessing_params,
    )) {
      ctx.addIssue({ code: "custom", message, path: ["preprocessing_params", ...path] });
    }
    return z.NEVER;
  }
  return { ...req, preprocessing_params: parsed.data };
});
export type CreatePreprocessingRequest = z.input<typeof preprocessingRequestFields>;
export type ParsedPreprocessingRequest = z.output<typeof createPreprocessingRequest>;

export const sendJobRequest = z.strictObject({
  job_id: uuid,
  model_id: uuid,
  job_type: z.string().min(1),
  payload: z.unknown(),
});
export type SendJobRequest = z.infer<typeof sendJobRequest>;

/** One change of a job's status history; a service may leave out any field but the status. */
export const jobEvent = z.looseObject({
  timestamp: timestamp.optional(),
  status: z.string(),
  phase: z.string().nullable().optional(),
  progress: z.number().optional(),
  message: z.string().nullable().optional(),
});
export type JobEvent = z.infer<typeof jobEvent>;

export const jobError = z.looseObject({ title: z.string(), detail: z.string() });

/**
 * The job record as the client reads it: only an id and a status are required (the
 * interface shows no fields); the reference service sends every field (docs/contract.md,
 * Records), another service may send fewer, in another casing (see normalizeJobRecord).
 * Fields it does not send are absent, never invented: no `progress` means progress is
 * not known. Unknown fields are kept.
 */
export const jobRecord = z.preprocess(
  normalizeJobRecord,
  z.looseObject({
    id: z.string().min(1),
    status: z.string(),
    model_id: z.string().optional(),
    job_type: z.string().optional(),
    /** 0..1; absent: the service does not report progress. */
    progress: z.number().optional(),
    phase: z.string().nullable().optional(),
    created_at: timestamp.nullable().optional(),
    started_at: timestamp.nullable().optional(),
    finished_at: timestamp.nullable().optional(),
    attempts: z.number().int().optional(),
    error: jobError.nullable().optional(),
    request: z.unknown().optional(),
    /** Grows with every change of status, phase or progress; absent: the service does not offer `wait`. */
    revision: z.number().int().optional(),
    /** Absent: the service keeps no status history. */
    events: z.array(jobEvent).optional(),
  }),
);
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
  timestamp: timestamp.optional(),
  /** debug, info, warning or error when recognised (`Information` is info), else the service's word lower-cased. */
  level: z.string(),
  message: z.string(),
  container: logContainer.partial().optional(),
});
export type JobExecutionLogMessage = z.infer<typeof logMessage>;

/**
 * Job logs: the reference service's `{job_id, status, messages, truncated}`, or a bare
 * array of messages, or messages whose fields sit in a nested `details` object (see
 * normalizeLogDetails). `status` is absent when the service does not say it.
 */
export const logDetails = z.preprocess(
  normalizeLogDetails,
  z.looseObject({
    job_id: z.string().optional(),
    status: z.string().optional(),
    messages: z.array(logMessage),
    truncated: z.boolean().default(false),
  }),
);
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

/**
 * A job's result. The reference service sends every field; another may send only the
 * outputs, as blob records, blob ids or download URLs, and no fitted state (see
 * normalizeJobResult). Unknown fields are kept.
 */
export const jobResult = z.preprocess(
  normalizeJobResult,
  z.looseObject({
    job_id: z.string().optional(),
    status: z.string().optional(),
    rows: z.number().int().optional(),
    columns: z.array(z.string()).optional(),
    feature_columns: z.array(z.string()).optional(),
    /** The output blobs' records, when the service returns them. */
    outputs: z.array(blobRecord).optional(),
    /** The output blobs' ids, when it returns only those. */
    output_blob_ids: z.array(z.string()).optional(),
    /** Absolute download URLs of the outputs, when it returns those instead. */
    download_urls: z.array(z.string()).optional(),
    /** The fitted state; absent when the service returns none (then there is no `job.transformer()`). */
    fitted: fittedState.optional(),
    duration_ms: z.number().optional(),
    /** scikit-learn 1.2.1's warnings on the same data and parameters (docs/warnings.md); absent: none reported. */
    warnings: z.array(jobWarning).optional(),
  }),
);
export type JobResult = z.infer<typeof jobResult>;
export { jobWarning, type JobWarning } from "./job-warning.js";

/** Every optional field present (the reference service's records); index signatures kept. */
export type Complete<T> = { [K in keyof T]-?: Exclude<T[K], undefined> };

/** A job record as the reference service sends it: every field of docs/contract.md present. */
export type ReferenceJobRecord = Complete<JobRecord> & { events: Complete<JobEvent>[] };

/** Logs as the reference service sends them. */
export type ReferenceLogDetails = Complete<JobExecutionLogDetails> & {
  messages: Array<Complete<JobExecutionLogMessage> & { container: JobExecutionLogContainer }>;
};

/** A result as the reference service sends it: blob records and the fitted state. */
export type ReferenceJobResult = Complete<
  Pick<JobResult, "job_id" | "status" | "rows" | "columns" | "fitted" | "duration_ms">
> &
  Pick<JobResult, "feature_columns" | "warnings"> & { outputs: Complete<BlobRecord>[] };
