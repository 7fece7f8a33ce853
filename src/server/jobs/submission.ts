import { createHmac, randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  createPreprocessingRequest,
  JOB_TYPES,
  REDACTED,
  sendJobRequest,
  type JobRecord,
  type ParsedPreprocessingRequest,
} from "../../core/contract/index.js";
import { parseEncryptionKey } from "../../core/crypto/index.js";
import { explainIssues, fieldErrorsOf, fieldPath } from "../../core/errors/zod-issues.js";
import { assertOwnModel } from "../http/plugins/auth.js";
import { HttpProblem, notFound, validationProblem, type FieldErrors } from "../http/problems.js";
import { DuplicateJobError } from "../domain/job-rows.js";
import type { JobKeys } from "./job-keys.js";

/** The request as stored and shown: parsed (defaults filled), keys replaced by "***". */
export type StoredPreprocessingRequest = ParsedPreprocessingRequest;

/** JSON with sorted keys, so two bodies that differ only in key order compare equal. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- JSON.stringify returns undefined for undefined, a function or a symbol; its type says string
  return JSON.stringify(value) ?? "null";
}

function redact(request: ParsedPreprocessingRequest): StoredPreprocessingRequest {
  return {
    ...request,
    ...(request.input_encryption_key !== undefined ? { input_encryption_key: REDACTED } : {}),
    output: request.output.map((o) => (o.encryption_key !== undefined ? { ...o, encryption_key: REDACTED } : o)),
  };
}

/** Parses the keys into memory; a malformed key is a 400 that never echoes the key. */
function parseKeys(request: ParsedPreprocessingRequest, prefix: string): JobKeys | null {
  const errors: FieldErrors = {};
  const read = (text: string | undefined, field: string): Buffer | null => {
    if (text === undefined) return null;
    try {
      return parseEncryptionKey(text);
    } catch {
      errors[`${prefix}${field}`] = [
        "must be a 32-byte key in base64 (43 characters, standard or url alphabet, optional '=' padding)",
      ];
      return null;
    }
  };
  const keys: JobKeys = {
    input: read(request.input_encryption_key, "input_encryption_key"),
    outputs: request.output.map((o, i) => read(o.encryption_key, `output[${i}].encryption_key`)),
  };
  if (Object.keys(errors).length > 0) throw validationProblem(errors);
  return keys.input || keys.outputs.some(Boolean) ? keys : null;
}

/** Most outputs one job may ask for: each is a file the size of the input. */
export const MAX_JOB_OUTPUTS = 16;

function parsePreprocessing(body: unknown, prefix: string): ParsedPreprocessingRequest {
  const parsed = createPreprocessingRequest.safeParse(body);
  if (!parsed.success)
    throw validationProblem(
      fieldErrorsOf(explainIssues(parsed.error.issues), (path) => fieldPath(path, prefix.replace(/\.$/, ""))),
    );
  const outputs = parsed.data.output.length;
  if (outputs > MAX_JOB_OUTPUTS)
    throw validationProblem({
      [`${prefix}output`]: [
        `has ${outputs} outputs; at most ${MAX_JOB_OUTPUTS} are allowed per request. Send several jobs, or ask for fewer outputs.`,
      ],
    });
  return parsed.data;
}

/**
 * Accepts a preprocessing job: checks what can be checked at submit (types, params,
 * model, input blob, key shapes), stores the redacted request and queues it. Keys go
 * to the runner in memory only.
 */
async function accept(
  app: FastifyInstance,
  request: FastifyRequest,
  parsed: ParsedPreprocessingRequest,
  jobId: string,
  digest: string,
  prefix: string,
): Promise<JobRecord> {
  const { blobs, jobs } = app.store;
  assertOwnModel(request, parsed.model_id, `${prefix}model_id`);
  const keys = parseKeys(parsed, prefix);
  if (!(await blobs.get(parsed.model_id, parsed.input_blob_id))) throw notFound("input blob", parsed.input_blob_id);
  // Held before the row exists: a poll of this process may find the row before create returns.
  const release = app.jobRunner.holdKeys(jobId, keys);
  let row;
  try {
    row = await jobs.create({
      id: jobId,
      modelId: parsed.model_id,
      jobType: "preprocessing",
      request: redact(parsed),
      digest,
      keyHolder: keys ? app.store.me.ownerId : null,
    });
  } catch (err) {
    release();
    throw err;
  }
  app.jobRunner.submitted();
  return jobs.record(row, 1000);
}

async function digestOf(app: FastifyInstance, body: unknown): Promise<string> {
  const secret = await app.store.instanceSecret();
  // Keyed with this data dir's secret: the digest lets a resubmission be compared
  // without keeping the body (which may hold keys) in any recoverable form.
  return createHmac("sha256", secret).update(canonicalJson(body)).digest("hex");
}

export async function sendPreprocessing(app: FastifyInstance, request: FastifyRequest): Promise<JobRecord> {
  const parsed = parsePreprocessing(request.body, "");
  return accept(app, request, parsed, randomUUID(), await digestOf(app, request.body), "");
}

/** Generic job send: idempotent on job_id (same body: the same job; another body: 409). */
export async function sendJob(app: FastifyInstance, request: FastifyRequest): Promise<JobRecord> {
  const envelope = sendJobRequest.safeParse(request.body);
  if (!envelope.success) throw validationProblem(fieldErrorsOf(explainIssues(envelope.error.issues)));
  const { job_id: jobId, model_id: modelId, job_type: jobType, payload } = envelope.data;
  assertOwnModel(request, modelId, "model_id");
  if (!(JOB_TYPES as readonly string[]).includes(jobType)) {
    throw validationProblem({ job_type: [`must be one of ${JOB_TYPES.join(", ")}`] });
  }
  const digest = await digestOf(app, request.body);
  const existing = await app.store.jobs.row(jobId);
  if (existing) return sameJobOrConflict(app, existing.id, existing.model_id, existing.request_digest, digest, modelId);
  const parsed = parsePreprocessing(payload, "payload.");
  try {
    return await accept(app, request, parsed, jobId, digest, "payload.");
  } catch (err) {
    // Two sends of the same job_id at once: the loser answers like a resend.
    const raced = err instanceof DuplicateJobError ? await app.store.jobs.row(jobId) : undefined;
    if (raced) {
      return sameJobOrConflict(app, raced.id, raced.model_id, raced.request_digest, digest, modelId);
    }
    throw err;
  }
}

async function sameJobOrConflict(
  app: FastifyInstance,
  id: string,
  ownerModel: string,
  storedDigest: string,
  digest: string,
  modelId: string,
): Promise<JobRecord> {
  const row = await app.store.jobs.row(id);
  if (row && ownerModel === modelId && storedDigest === digest) return app.store.jobs.record(row, 1000);
  throw new HttpProblem(
    409,
    `The job_id ${id} was already used for a different request. Use a new job_id for a new job, or resend the identical body to get the existing job.`,
  );
}
