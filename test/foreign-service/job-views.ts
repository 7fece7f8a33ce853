/** What the job endpoints answer: the job record, its logs and its result, in this service's words. */
import type { Job, JobState } from "./job-runner.js";
import type { SignedLinks } from "./signed-links.js";
import type { Settings, StatusWords } from "./switches.js";
import { wireTime } from "./wire-style.js";

export interface JobRecord {
  readonly id: string;
  readonly status: string;
  /** ISO text, or epoch milliseconds (`times: "epoch-millis"`). */
  readonly createdAt: string | number;
}

export type JobResult =
  | {
      readonly jobId: string;
      readonly status: string;
      readonly outputBlobIds: readonly string[];
      readonly message?: string;
    }
  | {
      readonly jobId: string;
      readonly status: string;
      readonly downloadUrls: readonly string[];
      readonly message?: string;
    };

export function statusWord(state: JobState, words: StatusWords): string {
  switch (state) {
    case "queued":
      return words.queued;
    case "running":
      return words.running;
    case "finalizing":
      return words.finalizing ?? words.running;
    case "succeeded":
      return words.succeeded;
    case "failed":
      return words.failed;
    case "canceled":
      return words.canceled;
    default: {
      const unreachable: never = state;
      return unreachable;
    }
  }
}

export function jobRecord(job: Job, settings: Settings): JobRecord {
  const createdAt = wireTime(job.createdAt, settings);
  return { id: job.id, status: statusWord(job.state, settings.statusWords), createdAt };
}

/** The oldest `limit` entries; the response is a bare JSON array. */
export function jobLogs(job: Job, limit: number, settings: Settings): readonly object[] {
  return job.logs.slice(0, limit).map((entry) => ({
    ...entry,
    details: { ...entry.details, timestamp: wireTime(entry.details.timestamp, settings) },
  }));
}

/** A finished job's result; a failed or canceled one carries `message` and no outputs. */
/** `FittedParameters` in this vendor's shape: PascalCase attributes, one array entry per feature column. */
function fittedParameters(job: Job, settings: Settings, asked: boolean): Record<string, unknown> {
  if (settings.fittedParameters !== "pascal" || job.fitted === undefined) return {};
  if (settings.fittedParametersWhen === "on-request" && !asked) return {};
  const attributes: Record<string, number[]> = {};
  for (const { attributes: fit } of job.fitted) {
    for (const [name, value] of Object.entries(fit)) (attributes[name] ??= []).push(value);
  }
  return {
    FittedParameters: { FeatureNamesIn: job.fitted.map((f) => f.column), ...attributes, NSamplesSeen: job.samples },
  };
}

/** The query flag that asks for `FittedParameters` where they come only on request. */
export const FITTED_QUERY = "includeFittedParameters";

export function jobResult(
  job: Job,
  settings: Settings,
  links: SignedLinks,
  request: { readonly origin: string; readonly fittedAsked: boolean },
): JobResult {
  const { origin } = request;
  const status = statusWord(job.state, settings.statusWords);
  const failure = job.error === undefined ? {} : { message: job.error };
  Object.assign(failure, fittedParameters(job, settings, request.fittedAsked));
  if (settings.resultShape === "download-urls") {
    return { jobId: job.id, status, downloadUrls: job.outputBlobIds.map((id) => links.sign(origin, id)), ...failure };
  }
  return { jobId: job.id, status, outputBlobIds: job.outputBlobIds, ...failure };
}
