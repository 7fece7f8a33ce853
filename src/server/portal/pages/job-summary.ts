import type { JobListing } from "../../domain/portal.js";

/** What a job list row says about a job, from its stored (already redacted) request. */
export interface JobSummary {
  transform: string;
  inputBlobId: string | null;
  /** The feature columns asked for; empty: every numeric column. */
  featureColumns: string[];
  outputs: string[];
  durationMs: number | null;
}

export function summarizeJob(
  job: Pick<JobListing, "request" | "started_at" | "finished_at">,
  now = Date.now(),
): JobSummary {
  let request: Record<string, unknown> = {};
  try {
    request = JSON.parse(job.request) as Record<string, unknown>;
  } catch {
    // An unreadable request shows as unknown fields, not an error page.
  }
  const payload = (
    typeof request.payload === "object" && request.payload !== null ? request.payload : request
  ) as Record<string, unknown>;
  const outputs = Array.isArray(payload.output)
    ? payload.output.map((o: unknown) => {
        const name = typeof o === "object" && o !== null ? (o as { name?: unknown }).name : undefined;
        return typeof name === "string" ? name : "";
      })
    : [];
  const started = job.started_at ? Date.parse(job.started_at) : null;
  const ended = job.finished_at ? Date.parse(job.finished_at) : now;
  return {
    transform: typeof payload.preprocessing_type === "string" ? payload.preprocessing_type : "?",
    inputBlobId: typeof payload.input_blob_id === "string" ? payload.input_blob_id : null,
    featureColumns: Array.isArray(payload.feature_columns)
      ? payload.feature_columns.filter((c): c is string => typeof c === "string")
      : [],
    outputs,
    durationMs: started === null ? null : Math.max(0, ended - started),
  };
}
