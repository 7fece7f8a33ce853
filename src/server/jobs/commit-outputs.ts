import { randomUUID } from "node:crypto";
import type { JobExecutionLogContainer } from "../../core/contract/index.js";
import { contentTypeOf } from "../blob-bytes/blob-content-type.js";
import { resolveCommit } from "../commit-outcome.js";
import { settleBrokenWrite } from "../domain/storage-faults.js";
import type { Store } from "../http/plugins/store.js";
import { blobContent, toBlobRecord } from "../domain/blobs.js";
import { metadataOfOutput } from "../../core/contract/blob-fields.js";
import type { RunReport } from "../domain/job-rows.js";
import { nowIso } from "../domain/clock.js";
import type { JobDone, RunJobMessage } from "./messages.js";
import type { StoredPreprocessingRequest } from "./submission.js";

/** The job was cancelled, or another process took it over: this attempt's outputs are discarded. */
export class LeaseLostError extends Error {
  override readonly name = "LeaseLostError";
}

export interface OutputCommit {
  store: Store;
  /** The lease this attempt runs under: the commit happens only while it is still held. */
  leaseOwner: string;
  /** The attempt number its claim gave it: the fence token checked in the commit's transaction. */
  attempt: number;
  jobId: string;
  modelId: string;
  request: StoredPreprocessingRequest;
  message: RunJobMessage;
  done: JobDone;
  /** performance.now() when the run started. */
  startedAt: number;
  /** Where the run's log lines come from. */
  container: JobExecutionLogContainer;
  /** The run's log lines and progress not written yet: they commit with `succeeded`, after it. */
  pendingReports: () => Promise<readonly RunReport[]>;
}

/**
 * Whether a job ending that threw did commit (its first output's row is there: the rows
 * and `succeeded` commit together). When the database says no and nothing can land later,
 * the placed files go; when a write still on its way could land, they are left to the
 * orphan sweep; when it
 * cannot be asked, they are kept until it answers (UnsettledCommits). The attempt then
 * ends without a terminal state and the job runs again once its lease runs out, unless
 * it had committed after all.
 */
async function settleOutputCommit(
  store: Store,
  err: unknown,
  placed: readonly string[],
  first: { id: string; modelId: string },
): Promise<boolean> {
  const reread = async () => ((await store.blobs.get(first.modelId, first.id)) ? true : undefined);
  const outcome = await resolveCommit(err, reread);
  switch (outcome.kind) {
    case "committed":
      return true;
    case "absent":
      await Promise.all(placed.map((p) => store.files.remove(p)));
      return false;
    case "absent_after_break":
      return false;
    case "unknown":
      await store.unsettled.add({
        placed,
        committed: async () => {
          await settleBrokenWrite(err);
          return (await reread()) === true;
        },
        what: `outputs of a job (first output blob ${first.id})`,
      });
      return false;
  }
}

/**
 * Places the output files under new blob ids, then commits their rows, the result and
 * `succeeded` in one transaction that first checks the lease is still this attempt's.
 * When the lease is gone (LeaseLostError) the placed files are removed again, so no
 * output blob exists without its row and no job's outputs are written twice; when the
 * commit threw, see settleOutputCommit.
 */
export async function commitOutputs(commit: OutputCommit): Promise<void> {
  const { store, jobId, request, message, done } = commit;
  const { files } = store;
  const outputs = message.outputs.map((out, i) => {
    const spec = request.output[i];
    const written = done.outputs[i];
    if (!spec || !written) throw new Error(`output ${i} of job ${jobId} has no request or no file`);
    const encrypted = out.key !== null;
    const content = blobContent({
      metadata: metadataOfOutput({ requested: spec, decided: { record_type: out.recordType } }),
      encrypted,
      contentType: contentTypeOf(out.recordType, encrypted),
      file: written,
    });
    return { out, id: randomUUID(), modelId: commit.modelId, content };
  });
  const placed: string[] = [];
  let sent = false;
  try {
    for (const o of outputs) placed.push(await files.place(o.out.tempPath, o.id, 1));
    const durationMs = Math.round(performance.now() - commit.startedAt);
    const at = nowIso();
    const records = outputs.map(({ id, modelId, content }) =>
      toBlobRecord({ id, model_id: modelId, revision: 1, ...content, created_at: at, updated_at: at }),
    );
    const result = {
      job_id: jobId,
      status: "succeeded",
      rows: done.rows,
      columns: done.columns,
      feature_columns: done.featureColumns,
      outputs: records,
      fitted: done.fitted,
      duration_ms: durationMs,
      warnings: done.warnings,
    };
    const summary = `succeeded in ${durationMs} ms: ${done.rows} rows; outputs ${records.map((o) => `'${o.name}' = blob ${o.id}`).join(", ")}`;
    sent = true;
    const committed = await store.endJob({
      jobId,
      status: "succeeded",
      guard: { leaseOwner: commit.leaseOwner, attempt: commit.attempt },
      result,
      message: `wrote ${records.length} output blob(s)`,
      outputs,
      at,
      reports: {
        owner: commit.leaseOwner,
        entries: [
          ...(await commit.pendingReports()),
          { kind: "log", level: "info", message: summary, container: commit.container, at: nowIso() },
        ],
      },
    });
    // Refused: nothing was written, the blob rows neither.
    if (!committed) throw new LeaseLostError(`job ${jobId} was cancelled or taken over before its commit`);
  } catch (err) {
    // Refused by the fence, or never sent: nothing committed. Otherwise ask the database.
    if (!sent || err instanceof LeaseLostError) {
      await Promise.all(placed.map((p) => files.remove(p)));
      throw err;
    }
    if (await settleOutputCommit(store, err, placed, outputs[0]!)) return;
    throw err;
  }
  // The temp names (removed by the runner once the attempt ends) marked the placed
  // files as this process's until the commit; see BlobFiles.place.
}
