/** What a Job handle is made with: what its send knew, or what the journal remembers of it. */
import type { RecordType } from "../../core/contract/blob.js";
import type { JobRecord } from "../../core/contract/job.js";
import type { PreprocessingType } from "../../core/contract/transform-types.js";
import type { JobFamily } from "../../client/jobs.js";
import type { Secret } from "../../client/secret.js";
import type { Blob } from "../blob.js";
import type { FrameShape } from "../table-io.js";

export interface JobInit<T extends PreprocessingType> {
  readonly type?: T | undefined;
  readonly record?: JobRecord | undefined;
  /** Keys to decrypt each output with, in output order. */
  readonly outputKeys?: ReadonlyArray<Secret | undefined> | undefined;
  /** Column order and dtypes of the input DataFrame, restored by `dataframe()`. */
  readonly inputShape?: FrameShape | undefined;
  readonly input?: Blob | undefined;
  /** The format of each output as requested, for a result that names only blob ids or URLs. */
  readonly outputRecordTypes?: readonly RecordType[] | undefined;
  /** The feature columns asked for (read as numbers when the result does not list them). */
  readonly featureColumns?: readonly string[] | undefined;
  /** The parameters it was sent with: a fitted state in the service's own shape is completed with them. */
  readonly params?: Readonly<Record<string, unknown>> | undefined;
  /**
   * The API the job was sent on: `job` (/api/job) or `preprocessing`; every read and
   * cancel go there. Absent (a handle on a bare id): /api/job, then, on a 404, the other.
   */
  readonly endpoint?: JobFamily | undefined;
  /** The reads base the send's `Location` named, when it gave one: reads go there. */
  readonly readBase?: string | undefined;
}
