import type { FastifyBaseLogger } from "fastify";
import type { Store } from "../http/plugins/store.js";
import { mayHaveCommitted, resolveCommit } from "../commit-outcome.js";
import { settleBrokenWrite } from "../domain/storage-faults.js";
import { HttpProblem } from "../http/problems.js";

/** What a client is told to wait before checking a commit whose outcome was unknown. */
const UNKNOWN_RETRY_SECONDS = 5;
/** What a client is told to wait before sending again a change the database did not store. */
const NOT_STORED_RETRY_SECONDS = 5;

/**
 * Removes files a change no longer needs once it is answered: its temp link, the revision
 * it replaced. The change is committed (or failed) whatever happens here, so a failure is
 * logged, not answered: a 5xx after a commit would tell the client its change was lost.
 * What stays is swept later (a file with no row and no live owner).
 */
export async function tidyFiles(options: {
  store: Store;
  paths: readonly string[];
  log: FastifyBaseLogger;
}): Promise<void> {
  const { store, paths, log } = options;
  await Promise.all(
    paths.map((path) =>
      store.files.remove(path).catch((err: unknown) => {
        log.warn(
          { err, path },
          "a file the answered change no longer needs could not be removed; the sweep removes it",
        );
      }),
    ),
  );
}

/**
 * The answer to a blob commit that threw after its file was placed: the committed row
 * when the database, asked again, has it (the client gets its 200 after all); when it has
 * not and nothing can land later, the placed file removed and the error (after a broken
 * connection, a 503 saying the database, asked again, had not stored it); when a write
 * still on its way could land, or the database cannot be asked, a 503 saying the outcome
 * is open and how to find it out, the file kept (held until the database answers, or
 * left to the orphan sweep, which asks the database again).
 */
export async function settleBlobCommit<T>(options: {
  store: Store;
  err: unknown;
  placed: string;
  /** The committed row, or undefined while it is not there. */
  reread: () => Promise<T | undefined>;
  /** Files the commit replaced, removed once it is known to have committed. */
  whenCommitted?: readonly string[];
  log: FastifyBaseLogger;
  /** What the client can check to learn the outcome (worded into the 503). */
  howToCheck: string;
  what: string;
}): Promise<T> {
  const { store, err, placed } = options;
  const outcome = await resolveCommit(err, options.reread);
  switch (outcome.kind) {
    case "committed":
      await tidyFiles({ store, paths: options.whenCommitted ?? [], log: options.log });
      return outcome.value;
    case "absent":
      await store.files.remove(placed);
      if (!mayHaveCommitted(err)) throw err;
      throw new HttpProblem(
        503,
        `The connection to the database broke while this change was being committed; asked again once it answered (the broken connection's work ended first), the database had not stored it. Send it again in ${NOT_STORED_RETRY_SECONDS} s.`,
        { headers: { "retry-after": String(NOT_STORED_RETRY_SECONDS) }, body: { code: "storage_unavailable" } },
      );
    case "absent_after_break":
      throw new HttpProblem(
        503,
        `The connection to the database broke while this change was being committed; asked again, the database does not have it yet, but the write could still land: it may or may not have been stored. ${options.howToCheck} Read it back after ${UNKNOWN_RETRY_SECONDS} s before sending it again.`,
        { headers: { "retry-after": String(UNKNOWN_RETRY_SECONDS) }, body: { code: "storage_outcome_unknown" } },
      );
    case "unknown":
      await store.unsettled.add({
        placed: [placed],
        committed: async () => {
          await settleBrokenWrite(err);
          return (await options.reread()) !== undefined;
        },
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
