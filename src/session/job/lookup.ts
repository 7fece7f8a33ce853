/**
 * `session.job(idOrPrefix)`: a job named by its id or by the first characters of it, as
 * `git` takes a commit. Only ids this session sent or its journal remembers can be
 * matched by prefix (the service looks jobs up by full id); a prefix that matches none
 * or several is refused here, with the candidates, instead of going out as a bad path id.
 */
import { MdpsError } from "../../client/errors.js";
import type { PreprocessingType } from "../../core/contract/transform-types.js";
import type { SessionContext } from "../session-context.js";
import { Job, type JobReach } from "./job.js";
import type { JournalJob } from "../journal.js";

/** Shorter prefixes match too much to be worth guessing at. */
export const MIN_JOB_PREFIX = 4;

/** The start of a UUID: hex digits and dashes, shorter than a whole one. */
const UUID_PREFIX = /^[0-9a-f-]+$/i;
const UUID_LENGTH = 36;

export interface KnownJob {
  readonly id: string;
  readonly type?: string | undefined;
}

/**
 * The full id `text` names among `known` (this session's jobs, then the journal's). An id
 * nobody here knows goes through as given: the job may have been sent elsewhere.
 *
 * @example
 * resolveJobId("3f2a", [{ id: "3f2a9c…" }]) // "3f2a9c…"
 */
export function resolveJobId(text: string, known: readonly KnownJob[]): string {
  const key = text.trim();
  if (known.some((j) => j.id === key)) return key;
  const looksLikePrefix = UUID_PREFIX.test(key) && key.length < UUID_LENGTH;
  if (!looksLikePrefix) return key;
  const lower = key.toLowerCase();
  const matches = unique(known.filter((j) => j.id.toLowerCase().startsWith(lower)));
  if (matches.length === 1 && key.length >= MIN_JOB_PREFIX) return matches[0]!.id;
  if (matches.length > 1) {
    const listed = matches.slice(0, 5).map(describe).join(", ");
    throw new MdpsError(
      "ambiguous_job_id",
      `"${key}" starts the ids of ${matches.length} jobs (${listed}${matches.length > 5 ? ", ..." : ""}); ` +
        `give more characters of the id.`,
    );
  }
  if (matches.length === 1) {
    throw new MdpsError(
      "job_id_prefix_too_short",
      `"${key}" is too short to name a job: give at least ${MIN_JOB_PREFIX} characters of the id ` +
        `(${describe(matches[0]!)} starts with it).`,
    );
  }
  throw new MdpsError(
    "unknown_job_id",
    `No job this session sent or its journal remembers has an id starting "${key}", and it is not a whole id. ` +
      `Give the job's full id (session.jobs() lists the model's jobs with their ids).`,
  );
}

/** A handle on job `id`, with what the journal remembers of it (its type, parameters and job family). */
export function journaledJob(ctx: SessionContext<JobReach>, id: string, entry: JournalJob | undefined): Job {
  return new Job(
    ctx,
    id,
    entry === undefined
      ? {}
      : {
          type: entry.type as PreprocessingType,
          featureColumns: entry.feature_columns,
          params: entry.params,
          endpoint: entry.endpoint,
          readBase: entry.read_base,
        },
  );
}

function unique(jobs: readonly KnownJob[]): KnownJob[] {
  const seen = new Set<string>();
  return jobs.filter((j) => !seen.has(j.id) && seen.add(j.id));
}

function describe(job: KnownJob): string {
  return job.type === undefined ? job.id : `${job.id} ${job.type}`;
}
