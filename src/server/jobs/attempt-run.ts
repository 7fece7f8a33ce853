import type { FastifyBaseLogger } from "fastify";
import type { RecordType } from "../../core/contract/index.js";
import { BlobDamagedError } from "../blob-bytes/blob-check.js";
import type { Store } from "../http/plugins/store.js";
import type { Attempt, AttemptEnd } from "./attempt.js";
import { commitOutputs, LeaseLostError } from "./commit-outputs.js";
import { pinCheckedInput } from "./job-input.js";
import { inputKeyRefusal } from "./job-keys.js";
import { commitEnding, endingOf, failedWith, inputDamaged, inputGone, outputsTooLarge } from "./run-ending.js";
import { runInWorker } from "./run-in-worker.js";

/** What an attempt needs of the runner that claimed its job. */
export interface AttemptContext {
  store: Store;
  /** The most bytes a job's outputs may hold together. */
  maxOutputBytes: number;
  log: FastifyBaseLogger;
  /** Whether the runner is stopping (asked anew after every await). */
  isClosed: () => boolean;
}

/**
 * One run of a claimed job: pin and check its input, run it in a worker, commit its
 * outputs under the attempt's lease. Every temp file is gone when it returns; a
 * success's temp links go just after its commit, which a placed output's link must outlast.
 */
export async function runAttempt(context: AttemptContext, attempt: Attempt): Promise<AttemptEnd> {
  const { store, maxOutputBytes } = context;
  const { slot, row, request, keys, log, container, reports, signal } = attempt;
  const { files } = store;
  await files.ensureTemp();
  const input = await pinCheckedInput(store, row.model_id, request.input_blob_id);
  if (!input) return { kind: "failed", ...failedWith(inputGone(request.input_blob_id)) };
  if (input instanceof BlobDamagedError)
    return { kind: "failed", ...failedWith(inputDamaged(input.blobId, input.reason)) };
  const temps = await files.attemptTemps(request.output.length);
  const tempPaths = temps.paths;
  try {
    let run;
    try {
      const refusal = inputKeyRefusal(input.blob.encrypted, keys);
      if (refusal) return { kind: "failed", ...failedWith(refusal) };
      run = await runInWorker({
        slot,
        jobId: row.id,
        inputPath: input.path,
        inputRecordType: input.blob.record_type as RecordType,
        request,
        keys,
        tempPaths,
        signal,
        onEvent: (event) => {
          if (context.isClosed() || signal.aborted) return;
          if (event.type === "progress")
            reports.add({ kind: "progress", phase: event.phase, progress: event.progress });
          else log(event.level, event.message);
        },
      });
    } finally {
      await files.remove(input.path);
    }
    const { outcome } = run;
    if (outcome.kind === "stopped") return { kind: "stopped" };
    if (outcome.kind !== "done") {
      if (context.isClosed() && outcome.kind === "crash") return { kind: "abandoned" }; // terminated by close()
      return { kind: "failed", ...endingOf(outcome, request.request_timeout_seconds) };
    }
    const outputBytes = outcome.done.outputs.reduce((sum, o) => sum + o.sizeBytes, 0);
    if (outputBytes > maxOutputBytes)
      return { kind: "failed", ...failedWith(outputsTooLarge(outputBytes, maxOutputBytes)) };
    // The run's logs and progress first, without fsync; the commit's own log line then
    // goes in the commit's transaction, which is fsynced.
    await reports.flush();
    try {
      await commitOutputs({
        store,
        leaseOwner: store.me.ownerId,
        attempt: row.attempts,
        jobId: row.id,
        modelId: row.model_id,
        request,
        message: run.message,
        done: outcome.done,
        startedAt: run.startedAt,
        container,
        pendingReports: () => reports.take(),
      });
      return { kind: "committed" };
    } catch (err) {
      if (err instanceof LeaseLostError) return { kind: "stopped" };
      context.log.error({ err, jobId: row.id }, "committing a job's outputs failed");
      return commitEnding(err, log);
    }
  } finally {
    await temps.remove();
  }
}
