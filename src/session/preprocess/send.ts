/**
 * `session.preprocess` and `session.sendJob`: plan, read and check the input, upload it,
 * send the job, and hand back its handle. The Session supplies what it owns (uploads,
 * notices, the journal and `onJob`) through its context's `session`.
 */
import { randomUUID } from "node:crypto";
import { ACCESS_TIERS, DEFAULT_ACCESS_TIER, RECORD_TYPES } from "../../core/contract/blob.js";
import type { CreatePreprocessingRequest } from "../../core/contract/job.js";
import type { PreprocessingType } from "../../core/contract/transform-types.js";
import { readBaseOf } from "../../client/jobs.js";
import { neverSent } from "../../client/retry-timing.js";
import { APIError, ConnectionError, SendOutcomeUnknownError, TimeoutError } from "../../client/errors.js";
import type { CallOptions } from "../../client/transport.js";
import { AUTO_INPUT_TAG } from "../auto-input-tag.js";
import { Blob } from "../blob.js";
import { Job } from "../job/job.js";
import { stopHeard, stoppableByKernel } from "../kernel-stoppable.js";
import type { SessionContext } from "../session-context.js";
import type { SessionReach } from "../session-reach.js";
import { assertPreflight, checkColumns } from "../preflight/preflight.js";
import { PreflightError } from "../preflight/preflight-error.js";
import { prepareUpload } from "../prepared-input.js";
import type { ServiceProfile } from "../../client/vendor/service-profile.js";
import type { FrameShape, Uploadable } from "../table-io.js";
import type { PreprocessOptions } from "./options.js";
import { preprocessOutputFormat, type OutputFormat } from "./output-format.js";
import { planPreprocess, requestFor, type PreprocessPlan } from "./plan.js";

/** The body of `POST /api/job/send`: its type and payload; the job id is generated when absent. */
export interface SendJobOptions extends CallOptions {
  /** Your own job id (UUID); sending it again with the same body returns the same job. */
  readonly jobId?: string | undefined;
  /** mdps's `preprocessing` (sent as the profile's `job_types` word), or a job type of the service's own. */
  readonly type: "preprocessing" | (string & {});
  /**
   * For `preprocessing` a CreatePreprocessingRequest; for another type whatever that type
   * takes. `model_id` defaults to the session's model.
   */
  readonly payload: (Omit<CreatePreprocessingRequest, "model_id"> & { model_id?: string }) | GenericPayload;
}

/** The payload of a job type other than preprocessing: the service's own fields. */
export type GenericPayload = Readonly<Record<string, unknown>> & { readonly model_id?: string };

/** Uploads `input` if needed and sends a preprocessing job planned from `options`. */
export async function sendPreprocessing<T extends PreprocessingType>(
  ctx: SessionContext<SessionReach>,
  input: Uploadable | Blob,
  options: PreprocessOptions<T>,
): Promise<Job<T>> {
  const { profile } = ctx;
  const plan = planPreprocess(options, {
    modelId: modelIdOf(ctx),
    profile,
    baseUrl: baseUrlOf(ctx),
    blobKey: input instanceof Blob ? { key: input.encryptionKey } : undefined,
  });
  const timeoutMs = plan.requestTimeoutMs;
  const { blob, features, format } =
    input instanceof Blob
      ? { blob: input, features: undefined, format: undefined }
      : await stoppableByKernel(
          {
            doing: `sending the ${plan.type} job`,
            then: "Nothing was sent: no job was made, and the service keeps nothing of an upload it did not receive whole. Run the cell again to send it.",
          },
          options.signal,
          (signal) => uploadChecked(ctx, input, plan, signal),
        );
  const built = requestFor(
    { ...plan, columns: featureColumns(ctx, { given: plan.columns, read: features, input: blob }) },
    { blobId: blob.id, name: blob.name, recordType: blob.recordType, outputRecordType: format?.recordType },
    profile,
  );
  // The generic endpoint with our own id, where the service declares it idempotent: a
  // retried send cannot start a second job. Elsewhere the interface's preprocessing send.
  // Either way the job's id is the one the service answers with.
  const generic = profile.declares("idempotent-job-send");
  const endpoint = generic ? "job" : "preprocessing";
  let location: string | undefined;
  const sendOptions = {
    signal: options.signal,
    timeoutMs,
    onLocation: (url: string) => (location = url),
    retryRefused: profile.settings.retryRefusedWrites !== false,
  };
  const record = generic
    ? await ctx.client.jobs.send(
        {
          job_id: plan.jobId ?? randomUUID(),
          model_id: modelIdOf(ctx),
          job_type: profile.jobTypeWord("preprocessing"),
          payload: built.request,
        },
        sendOptions,
      )
    : await sendOnce(ctx, () => ctx.client.preprocessing.send(built.request, sendOptions));
  const readBase = location === undefined ? undefined : readBaseOf(location, record.id, baseUrlOf(ctx));
  const job = new Job<T>(ctx, record.id, {
    type: plan.type,
    record,
    outputKeys: plan.outputKeys,
    inputShape: blob.shape,
    input: blob,
    outputRecordTypes: built.outputRecordTypes,
    featureColumns: built.request.feature_columns ?? [],
    params: built.request.preprocessing_params,
    endpoint,
    readBase,
  });
  return ctx.session.sent(job, { record, request: built.request, endpoint, readBase });
}

/**
 * Reads the input once, checks it before any byte is sent (../preflight/preflight.ts), and
 * uploads it. Between the steps the kernel's stop is heard, so a stop while a large frame
 * is read and checked ends the call before anything leaves this machine.
 */
async function uploadChecked(
  ctx: SessionContext<SessionReach>,
  input: Uploadable,
  plan: PreprocessPlan,
  signal: AbortSignal | undefined,
): Promise<{ blob: Blob; features: readonly string[]; format: OutputFormat }> {
  const { options } = plan;
  await stopHeard(signal);
  const prepared = await prepareUpload(
    input,
    options.upload?.recordType,
    ctx.wireFormat,
    { ...options.upload, signal },
    ctx.reads,
  );
  await stopHeard(signal);
  const report = assertPreflight(checkColumns(await prepared.table(), plan));
  await stopHeard(signal);
  for (const warning of report.warnings) ctx.notify(warning.message);
  const format = preprocessOutputFormat({
    source: prepared.source,
    report,
    chosen: plan.chosenRecordType,
    wireFormat: ctx.wireFormat,
  });
  if (format.notice !== undefined) ctx.notify(format.notice);
  const blob = await ctx.session.upload(prepared, {
    ...options.upload,
    // Uploaded on its own: kept for a while, then pruned (../../local/auto-inputs.ts).
    tags: [...(options.upload?.tags ?? []), AUTO_INPUT_TAG],
    encrypt: plan.inputKey,
    signal,
    timeoutMs: plan.requestTimeoutMs,
  });
  return { blob, features: report.features, format };
}

/** POST /api/job/send with a caller-chosen id (generated when absent): idempotent. */
export async function sendJob(ctx: SessionContext<SessionReach>, options: SendJobOptions): Promise<Job> {
  const modelId = modelIdOf(ctx);
  const jobId = options.jobId ?? randomUUID();
  const payload: Partial<CreatePreprocessingRequest> = { model_id: modelId, ...options.payload };
  const wire = options.type === "preprocessing" ? preprocessingOnWire(ctx.profile, payload) : payload;
  let location: string | undefined;
  const record = await ctx.client.jobs.send(
    { job_id: jobId, model_id: modelId, job_type: ctx.profile.jobTypeWord(options.type), payload: wire },
    { signal: options.signal, timeoutMs: options.timeoutMs, onLocation: (url) => (location = url) },
  );
  const readBase = location === undefined ? undefined : readBaseOf(location, record.id, baseUrlOf(ctx));
  const job = new Job(ctx, record.id, { type: payload.preprocessing_type, record, endpoint: "job", readBase });
  return ctx.session.sent(job, { record, request: payload, jobType: options.type, endpoint: "job", readBase });
}

/** A preprocessing payload in the service's spelling: its parameters, and its outputs' words where they are mdps's. */
function preprocessingOnWire(
  profile: ServiceProfile,
  payload: Partial<CreatePreprocessingRequest>,
): Partial<CreatePreprocessingRequest> {
  const params = payload.preprocessing_params;
  const output = payload.output?.map((o) => {
    const ours = RECORD_TYPES.find((t) => t === o.record_type);
    const tier = ACCESS_TIERS.find((t) => t === (o.access_tier ?? DEFAULT_ACCESS_TIER));
    return {
      ...o,
      ...(ours === undefined ? {} : { record_type: profile.recordTypeWord(ours) }),
      ...(tier === undefined ? {} : { access_tier: profile.accessTierWord(tier) }),
    };
  });
  return {
    ...payload,
    ...(params === undefined ? {} : { preprocessing_params: profile.paramsOnWire(params) }),
    ...(output === undefined ? {} : { output }),
  };
}

/**
 * A send that is not idempotent there is made once: when its answer is lost the job
 * may exist, and a second send could start a duplicate, so the caller is told instead.
 */
async function sendOnce<R>(ctx: SessionContext<SessionReach>, send: () => Promise<R>): Promise<R> {
  try {
    return await send();
  } catch (error) {
    const lost =
      (error instanceof APIError && (error.status ?? 0) >= 500) ||
      (error instanceof ConnectionError && !neverSent((error.cause as { code?: string } | undefined)?.code)) ||
      error instanceof TimeoutError;
    if (!lost) throw error;
    const where = ctx.profile.declares("job-list") ? "session.jobs()" : "the service's portal";
    throw new SendOutcomeUnknownError(
      `The job send to ${baseUrlOf(ctx)} failed after it left this machine (${error.message.replace(/\.$/, "")}), ` +
        `so the service may have made the job. mdps did not send it again: this service does not declare an ` +
        `idempotent send, and a second send could start a duplicate. Look for the job in ${where} before sending again.`,
      { cause: error },
    );
  }
}

/**
 * The feature columns to send: the caller's, else (where the service has not said that
 * an empty list means every numeric column) the numeric columns read from the input.
 */
function featureColumns(
  ctx: SessionContext<SessionReach>,
  from: { readonly given: readonly string[]; readonly read: readonly string[] | undefined; readonly input: Blob },
): readonly string[] {
  if (from.given.length > 0 || ctx.profile.emptyFeatureColumnsMeanAll) return from.given;
  const known = from.read ?? numericColumnsOf(from.input.shape);
  if (known !== undefined) return known;
  throw new PreflightError([
    {
      field: "columns",
      message:
        `name the feature columns (columns: [...]): the service at ${baseUrlOf(ctx)} does not declare that an empty ` +
        `list means every numeric column, and this session has not read blob ${from.input.id} to find them`,
    },
  ]);
}

/** The numeric columns of a DataFrame the session uploaded, from its dtypes; undefined when unknown. */
function numericColumnsOf(shape: FrameShape | undefined): string[] | undefined {
  return shape?.columns.filter((c) => /^(float|int)/.test(shape.dtypes[c] ?? ""));
}

/** The session's model, as its client has it. */
function modelIdOf(ctx: SessionContext<SessionReach>): string {
  return ctx.client.modelId;
}

/** The service's address, as the session's client has it. */
function baseUrlOf(ctx: SessionContext<SessionReach>): string {
  return ctx.client.config.baseUrl;
}
