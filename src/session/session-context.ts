/**
 * What a Session hands every handle and helper it makes (Blob, Job, Pipeline, the
 * listings, the sending): its client, what it assumes of the service, and, as
 * `session`, the parts of the Session a helper calls back into. `Reach` says which parts
 * those are, in the helper's own terms: none for a Blob, `JobReach` for a Job
 * (./job/job.ts), `SessionReach` for the Session's own helpers (./session-reach.ts).
 * The Session makes one context that has them all. Naming only core and client types
 * here keeps the context below every handle it is handed to, so no handle's module
 * needs another's that needs it back.
 */
import type { RecordType } from "../core/contract/blob.js";
import type { JobStatusVocabulary } from "../core/contract/job-status.js";
import type { MdpsClient } from "../client/client.js";
import type { ServiceProfile } from "../client/vendor/service-profile.js";

export interface SessionContext<Reach = unknown> {
  readonly client: MdpsClient;
  /** What the session assumes of its service: its words, declared capabilities, settings and defaults. */
  readonly profile: ServiceProfile;
  /** The record type a DataFrame is uploaded as, unless the caller says otherwise. */
  readonly wireFormat: RecordType;
  /** Longest pause between job polls unless the caller says: short for a local service. */
  readonly pollIntervalMs: number;
  /** The service's job status words read by meaning. */
  readonly statuses: JobStatusVocabulary;
  /** Whether the service reads files of a record type as they are (else a file of it is converted here). */
  readonly reads: (recordType: RecordType) => boolean;
  /** Gives the session's one-line notices (`session.onNotice`). */
  readonly notify: (message: string) => void;
  /** Hears that a blob was deleted: the session's journal forgets it. */
  readonly forget: (blobId: string) => void;
  /** The parts of the Session this context's holder calls back into. */
  readonly session: Reach;
}
