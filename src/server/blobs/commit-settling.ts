import type { Store } from "../http/plugins/store.js";
import { resolveCommit } from "../commit-outcome.js";
import { HttpProblem } from "../http/problems.js";

/** What a client is told to wait before checking a commit whose outcome was unknown. */
const UNKNOWN_RETRY_SECONDS = 5;

/**
 * The answer to a blob commit that threw after its file was placed: the committed row
 * when the database, asked again, has it (the client gets its 200 after all); the error
 * when it has not, the placed file removed only if the error was the database's own
 * answer (after a broken connection it is left to the orphan sweep, which asks the
 * database again); and when the database cannot be asked, a 503 saying the outcome is
 * unknown and how to find it out, the file kept until the database answers.
 */
export async function settleBlobCommit<T>(options: {
  store: Store;
  err: unknown;
  placed: string;
  /** The committed row, or undefined while it is not there. */
  reread: () => Promise<T | undefined>;
  /** Files the commit replaced, removed once it is known to have committed. */
  whenCommitted?: readonly string[];
  /** What the client can check to learn the outcome (worded into the 503). */
  howToCheck: string;
  what: string;
}): Promise<T> {
  const { store, err, placed } = options;
  const outcome = await resolveCommit(err, options.reread);
  switch (outcome.kind) {
    case "committed":
      await Promise.all((options.whenCommitted ?? []).map((p) => store.files.remove(p)));
      return outcome.value;
    case "absent":
      await store.files.remove(placed);
      throw err;
    case "absent_after_break":
      throw err;
    case "unknown":
      await store.unsettled.add({
        placed: [placed],
        committed: async () => (await options.reread()) !== undefined,
        whenCommitted: options.whenCommitted ?? [],
        what: options.what,
      });
      throw new HttpProblem(
        503,
        `The connection to the database broke while this change was being committed, and the database has not answered since: it may or may not have been stored. ${options.howToCheck} Its bytes are kept until the outcome is known. Retry after ${UNKNOWN_RETRY_SECONDS} s.`,
        { headers: { "retry-after": String(UNKNOWN_RETRY_SECONDS) }, body: { code: "storage_outcome_unknown" } },
      );
  }
}
