/**
 * `job.rerun({ params })`: the same input, transform and feature columns sent again with
 * some parameters changed: the "what if" of a lesson (RobustScaler with quantile_range
 * 10, 90 instead of 25, 75). It goes through `session.preprocess`, so the parameters are
 * checked before anything is sent and the new job is reported to `onJob` like any other.
 */
import { MdpsError } from "../../client/errors.js";
import type { ListOptions } from "../../client/jobs.js";
import type { JobRecord } from "../../core/contract/job.js";
import type { ParamsInput } from "../../core/contract/params.js";
import type { PreprocessingType } from "../../core/contract/transform-types.js";
import type { Blob } from "../blob.js";
import type { PreprocessOptions } from "../preprocess/options.js";

/** What a rerun may change; everything else is the original job's. */
export type RerunOptions<T extends PreprocessingType> = Omit<
  PreprocessOptions<T>,
  "type" | "params" | "columns" | "encrypt" | "upload" | "jobId"
> & {
  /** The parameters to change; the others keep the original job's values. */
  readonly params?: Partial<ParamsInput<T>> | undefined;
  /** Other feature columns; default the original job's. */
  readonly columns?: readonly string[] | undefined;
};

/** What a rerun reads of the original job (its handle, and the private state Job.rerun passes). */
export interface RerunOrigin<T extends PreprocessingType> {
  readonly job: {
    readonly id: string;
    readonly type: T | undefined;
    readonly input: Blob | undefined;
    readonly record: JobRecord | undefined;
    status(options: ListOptions): Promise<JobRecord>;
  };
  readonly params: Readonly<Record<string, unknown>>;
  readonly featureColumns: readonly string[];
}

/** The input and options to send again; `blobs` (the session's) are searched for an input the handle does not hold. */
export async function rerunRequest<T extends PreprocessingType>(
  origin: RerunOrigin<T>,
  options: RerunOptions<T>,
  blobs: () => readonly Blob[],
): Promise<{ input: Blob; options: PreprocessOptions<T> }> {
  const { job } = origin;
  // A handle on a bare id knows its request only from the record.
  const record = job.record ?? (await job.status({ signal: options.signal }));
  const request = (record.request ?? {}) as {
    input_blob_id?: unknown;
    preprocessing_type?: unknown;
    preprocessing_params?: unknown;
    feature_columns?: unknown;
  };
  const type = (job.type ?? request.preprocessing_type) as T | undefined;
  if (type === undefined) {
    throw new MdpsError("rerun_unknown_type", `Job ${job.id}: its record does not say which transform it ran.`);
  }
  const input = job.input ?? findInput(blobs(), request.input_blob_id, job.id);
  if (input.encrypted && input.encryptionKey === undefined) {
    throw new MdpsError(
      "rerun_needs_key",
      `Job ${job.id}'s input ${input.name || input.id} is encrypted and its key is not in this session, so the ` +
        `service could not read it again. Send it with session.preprocess(blob, { type: "${type}", params, ... }) ` +
        `on a blob handle that holds the key.`,
    );
  }
  const sentParams = isRecord(request.preprocessing_params) ? request.preprocessing_params : {};
  const sentColumns = Array.isArray(request.feature_columns) ? (request.feature_columns as string[]) : [];
  const original = Object.keys(origin.params).length > 0 ? origin.params : sentParams;
  const featureColumns = origin.featureColumns.length > 0 ? origin.featureColumns : sentColumns;
  const { params: changed, columns, ...rest } = options;
  return {
    input,
    options: {
      ...rest,
      type,
      params: { ...original, ...(changed ?? {}) } as ParamsInput<T>,
      // Empty: every numeric column, as the original was sent.
      columns: columns ?? (featureColumns.length > 0 ? featureColumns : undefined),
    },
  };
}

function findInput(blobs: readonly Blob[], id: unknown, jobId: string): Blob {
  const blob = typeof id === "string" ? blobs.find((b) => b.id === id) : undefined;
  if (blob === undefined) {
    throw new MdpsError(
      "rerun_unknown_input",
      `Job ${jobId}'s input blob ${typeof id === "string" ? id : "(not in its record)"} is not one this session ` +
        `or its journal knows, so it cannot be sent again from here. Send the data again with session.preprocess(...).`,
    );
  }
  return blob;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
