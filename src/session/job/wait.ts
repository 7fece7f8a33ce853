/**
 * Following a job to its end: reads of its record (each one remembered by the handle),
 * waits for a change where the service offers it, polls otherwise, and a notebook
 * kernel's interrupt stops the wait (not the job). Job.wait adds the live status and
 * turns an unsuccessful end into its error.
 */
import type { JobRecord } from "../../core/contract/job.js";
import type { SessionContext } from "../session-context.js";
import type { JobAddress } from "./address.js";
import { pollUntilTerminal, waitDurations, type WaitOptions } from "./polling.js";
import { readRecord } from "./record.js";
import { stoppableByKernel } from "../kernel-stoppable.js";

export interface FollowToEnd {
  ctx: SessionContext;
  id: string;
  address: JobAddress;
  /** The record the handle has already read (the send's), if any. */
  seen: JobRecord | undefined;
  options: WaitOptions;
  /** Every record read, as read. */
  onRead: (record: JobRecord) => void;
  /** Every change seen, after the caller's own `options.onUpdate`. */
  onUpdate: (record: JobRecord) => void;
}

/** Resolves to the job's terminal record. */
export async function followToEnd({
  ctx,
  id,
  address,
  seen,
  options,
  onRead,
  onUpdate,
}: FollowToEnd): Promise<JobRecord> {
  const vocabulary = ctx.statuses;
  return stoppableByKernel(
    {
      doing: `waiting for job ${id}`,
      then: "The job goes on: `await job.wait()` follows it again, `await job.cancel()` stops it.",
    },
    options.signal,
    async (signal) => {
      const changeWait = await ctx.profile.offers("wait");
      return pollUntilTerminal(
        id,
        async (callSignal, change) => {
          // A few events are enough to replay what happened between two reads.
          const record = readRecord(
            await address.call((r) => r.get(id, { limit: 32, signal: callSignal, ...change })),
            vocabulary,
          );
          onRead(record);
          return record;
        },
        {
          ...options,
          signal,
          changeWait,
          // The send's record is already a read: wait for the next change at once,
          // unless it ended (then one plain read fetches its final record).
          since: seen && !vocabulary.isTerminal(seen.status) ? seen.revision : undefined,
          initial: seen,
          isTerminal: (status) => vocabulary.isTerminal(status),
          pollIntervalMs: waitDurations(options).pollIntervalMs ?? ctx.pollIntervalMs,
          onUpdate: (r) => {
            options.onUpdate?.(r);
            onUpdate(r);
          },
        },
      );
    },
  );
}
