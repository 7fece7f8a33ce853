/**
 * The `session` JavaScript at the prompt sees: the REPL's Session, whose `job(name)` also
 * knows the REPL's job names (`j4`), since /jobs shows those and not ids. A name the REPL
 * never gave is refused with the names it did, instead of going to the service as an id.
 */
import type { Job, Session } from "../../src/index.js";

/** The names and handles of the jobs the REPL tracks. */
export interface JobNames<J> {
  readonly jobs: ReadonlyArray<{ readonly ref: string }>;
  handle(ref: string): J | undefined;
}

const JOB_NAME = /^j\d+$/i;

export function replSession(session: Session, names: JobNames<Job>): Session {
  const job = (idOrName: string): Job => {
    const key = typeof idOrName === "string" ? idOrName.trim().toLowerCase() : idOrName;
    if (typeof key !== "string" || !JOB_NAME.test(key)) return session.job(idOrName);
    const handle = names.handle(key);
    if (handle) return handle;
    const known = names.jobs.map((j) => j.ref);
    throw new Error(
      `no job ${key} in this REPL session; ` +
        (known.length > 0 ? `its jobs are ${known.join(", ")} (see /jobs)` : "no job was sent yet (see /jobs)") +
        `, or pass a job id: session.job("3f2a…")`,
    );
  };
  return new Proxy(session, {
    get(target, property) {
      if (property === "job") return job;
      const value: unknown = Reflect.get(target, property, target);
      // Methods run on the Session itself: its private fields are not the proxy's.
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
