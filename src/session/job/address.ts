/**
 * Where a job is read: the job family it was sent to (`/api/job/...` or
 * `/api/ml/preprocessing/job/...`), or the base its send's `Location` named. The
 * interface lists get, logs and result under both families and never says that they
 * share jobs; a service may keep them apart, so a job is never read through the other
 * family unless nothing says which it was sent to (a handle made from a bare id), and
 * then only after the generic family answered 404 and the service does not declare
 * `shared-job-reads`.
 */
import { NotFoundError } from "../../client/errors.js";
import type { JobFamily, JobReads } from "../../client/jobs.js";
import type { ServiceProfile } from "../../client/vendor/service-profile.js";
import type { MdpsClient } from "../../client/client.js";

export interface JobPlace {
  /** The family the job was sent to; undefined when not known (a handle on a bare id). */
  readonly family?: JobFamily | undefined;
  /** The reads base the send's `Location` named (see readBaseOf), when it gave one. */
  readonly readBase?: string | undefined;
}

export class JobAddress {
  readonly #client: MdpsClient;
  readonly #profile: ServiceProfile | undefined;
  #family: JobFamily | undefined;
  readonly #readBase: string | undefined;

  constructor(client: MdpsClient, place: JobPlace, profile: ServiceProfile | undefined) {
    this.#client = client;
    this.#family = place.family;
    this.#readBase = place.readBase;
    this.#profile = profile;
  }

  /** The family reads go to: the one the job was sent to, else (not known yet) the generic one. */
  get family(): JobFamily {
    return this.#family ?? "job";
  }

  get readBase(): string | undefined {
    return this.#readBase;
  }

  /** The reads of this job's family, under its Location's base when the send named one. */
  reads(family: JobFamily = this.family): JobReads {
    const reads = family === "preprocessing" ? this.#client.preprocessing : this.#client.jobs;
    return this.#readBase === undefined ? reads : reads.at(this.#readBase);
  }

  /** Runs `op` on the job's reads; for a job of unknown family, a 404 there tries the preprocessing family. */
  async call<T>(op: (reads: JobReads) => Promise<T>): Promise<T> {
    try {
      return await op(this.reads());
    } catch (error) {
      if (this.#family !== undefined || this.#readBase !== undefined || !(error instanceof NotFoundError)) throw error;
      if ((await this.#profile?.offers("shared-job-reads")) === true) throw error;
      let value: T;
      try {
        value = await op(this.reads("preprocessing"));
      } catch {
        throw error; // unknown there too: the first answer says it
      }
      this.#family = "preprocessing";
      return value;
    }
  }
}
