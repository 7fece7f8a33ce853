/**
 * The parts of a Session its own helpers call back into (the listings, the sending,
 * pipelines): what a Job reaches, and its uploads, its record of sent jobs, the handles
 * it made and its journal. They come as the `session` of the one context a Session
 * makes (./session-context.ts).
 */
import type { Blob, UploadOptions } from "./blob.js";
import type { Job, JobReach } from "./job/job.js";
import type { Journal, SentJob } from "./journal.js";
import type { PreparedUpload } from "./prepared-input.js";

export interface SessionReach extends JobReach {
  /** `session.upload` of input already read (reported, remembered). */
  readonly upload: (data: PreparedUpload, options: UploadOptions) => Promise<Blob>;
  /** Records an accepted job in the journal, adds it to the session's jobs and announces it; returns it. */
  readonly sent: <J extends Job>(job: J, sent: SentJob) => J;
  /** Blobs made in this session, oldest first (deleted ones too). */
  readonly ownBlobs: readonly Blob[];
  /** Jobs this session sent, oldest first. */
  readonly ownJobs: readonly Job[];
  /** Handles on blobs the journal remembers from earlier sessions, made when first listed. */
  readonly earlierBlobs: Map<string, Blob>;
  /** Where this session records its jobs and blobs; none for a local session (its service lists them). */
  readonly journal: Journal | undefined;
}
