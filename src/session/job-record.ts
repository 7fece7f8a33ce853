/**
 * A job record as the Session shows it: the service's status word read by meaning
 * (`Succeeded` is succeeded), the word itself kept as `service_status` when it differs.
 */
import { JobStatusVocabulary } from "../contract/job-status.js";
import type { JobRecord } from "../contract/job.js";
import { isPreprocessingType, type PreprocessingType } from "../contract/transform-types.js";
import type { BlobContext } from "./blob.js";

const builtIn = new JobStatusVocabulary();

/** The session's vocabulary, else the built-in synonyms. */
export function vocabularyOf(ctx: BlobContext): JobStatusVocabulary {
  return ctx.statuses ?? builtIn;
}

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
