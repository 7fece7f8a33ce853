/**
 * A job record as the Session shows it: the service's status word read by meaning
 * (`Succeeded` is succeeded), the word itself kept as `service_status` when it differs.
 */
import type { JobStatusVocabulary } from "../../core/contract/job-status.js";
import type { JobRecord } from "../../core/contract/job.js";
import { isPreprocessingType, type PreprocessingType } from "../../core/contract/transform-types.js";

/** The record with canonical statuses (its own and its events'); unknown words stay as they are. */
export function readRecord(record: JobRecord, vocabulary: JobStatusVocabulary): JobRecord {
  const status = vocabulary.canonical(record.status);
  const events = record.events?.map((e) => {
    const canonical = vocabulary.canonical(e.status);
    return canonical === e.status ? e : { ...e, status: canonical };
  });
  const same = status === record.status && events?.every((e, i) => e === record.events?.[i]) !== false;
  if (same) return record;
  return {
    ...record,
    status,
    ...(status === record.status ? {} : { service_status: record.status }),
    ...(events ? { events } : {}),
  };
}

/** The transform a record's request names (a listed job's), when it is one mdps knows. */
export function typeOfRecord(record: JobRecord | undefined): PreprocessingType | undefined {
  const request = record?.request as { preprocessing_type?: unknown } | null | undefined;
  const type = typeof request === "object" && request !== null ? request.preprocessing_type : undefined;
  return typeof type === "string" && isPreprocessingType(type) ? type : undefined;
}

/** The message of the event that ended the job (e.g. who cancelled it), if the service gave one. */
export function endingMessage(record: JobRecord): string | undefined {
  const last = record.events?.findLast((e) => e.status === record.status);
  return last?.message ?? undefined;
}

/** A download URL's last path segment (a blob id, usually) as the handle's id. */
export function idFromUrl(url: string, index: number): string {
  try {
    const segment = new URL(url).pathname
      .split("/")
      .filter((p) => p !== "")
      .pop();
    return segment ? decodeURIComponent(segment) : `output-${index + 1}`;
  } catch {
    return `output-${index + 1}`;
  }
}
