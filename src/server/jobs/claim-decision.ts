import { hostname } from "node:os";
import { type ClaimCandidate } from "../domain/job-rows.js";
import { MAX_ATTEMPTS } from "../domain/job-rows.js";
import { KEYS_LOST } from "./job-keys.js";
import type { FailedEnding } from "./attempt.js";
import { failedWith, interruptedTooOften } from "./run-ending.js";

/** What a process does with a job it may take: leave it, end it, or claim it. */
export type ClaimDecision = { kind: "skip" } | { kind: "fail"; ending: FailedEnding } | { kind: "claim" };

export interface ClaimContext {
  /** This process's owner id. */
  me: string;
  /** Whether this process holds the candidate's keys. */
  hasKeys: boolean;
  /** Whether the process with this owner id is alive. */
  isAlive: (ownerId: string) => boolean;
}

/**
 * The rules of taking a job over. A job with keys runs only where its keys are: other
 * processes leave it while its holder lives, and end it (keys lost) once it is dead. A
 * job that used up its attempts ends instead of running again.
 *
 * @example
 * decideClaim({ ...candidate, had_keys: 1, key_holder: "other" }, { me: "me", hasKeys: false, isAlive: () => true });
 * // { kind: "skip" }
 */
export function decideClaim(candidate: ClaimCandidate, context: ClaimContext): ClaimDecision {
  if (candidate.had_keys && !context.hasKeys) {
    const holder = candidate.key_holder;
    if (holder !== null && holder !== context.me && context.isAlive(holder)) return { kind: "skip" };
    return { kind: "fail", ending: failedWith(KEYS_LOST) };
  }
  if (candidate.attempts >= MAX_ATTEMPTS) {
    return { kind: "fail", ending: failedWith(interruptedTooOften(candidate.attempts)) };
  }
  return { kind: "claim" };
}

/** The `running` event of a claim: which process runs the attempt, and whom it took the job from. */
export function claimMessage(candidate: ClaimCandidate, owner: string, ownerDied: boolean): string {
  const attempt = `attempt ${candidate.attempts + 1} on ${hostname()}, process ${process.pid} (${owner})`;
  if (candidate.status !== "running") return attempt;
  const from = candidate.lease_owner ?? "a process";
  return ownerDied
    ? `${attempt}; taken over from ${from}, which no longer runs on this host`
    : `${attempt}; taken over from ${from} whose lease expired`;
}
