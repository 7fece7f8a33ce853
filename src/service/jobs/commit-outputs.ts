import { randomUUID } from "node:crypto";
import type { LogLevel } from "../../contract/index.js";
import { contentTypeOf } from "../blob-content-type.js";
import type { Store } from "../plugins/store.js";
import { toBlobRecord } from "../store/blobs.js";
import { nowIso } from "../store/database.js";
import type { JobDone, RunJobMessage } from "./messages.js";
import type { StoredPreprocessingRequest } from "./submission.js";

export interface OutputCommit {
  store: Store;
  jobId: string;
  modelId: string;
  request: StoredPreprocessingRequest;
  message: RunJobMessage;
  done: JobDone;
  /** performance.now() when the run started. */
  startedAt: number;
  log: (level: LogLevel, message: string) => void;
}

/**
 * Places the output files under new blob ids, then commits their rows, the result and
 * `succeeded` in one transaction. On any failure the placed files are removed again,
 * so no output blob exists without its row.
 */
export async function commitOutputs(commit: OutputCommit): Promise<void> {
  const { store, jobId, request, message, done } = commit;
  const { db, jobs, blobs, files } = store;
  const outputs = message.outputs.map((out, i) => {
    const spec = request.output[i];
    const written = done.outputs[i];
    if (!spec || !written) throw new Error(`output ${i} of job ${jobId} has no request or no file`);
    return { out, spec, written, id: randomUUID() };
  });
  const placed: string[] = [];
  try {
    for (const o of outputs) placed.push(await files.place(o.out.tempPath, o.id, 1));
    const durationMs = Math.round(performance.now() - commit.startedAt);
    db.transaction(() => {
      const now = nowIso();
      const records = outputs.map(({ out, spec, written, id }) => {
        const encrypted = out.key !== null;
        return toBlobRecord(
          blobs.insert(
            id,
            commit.modelId,
            1,
            {
              name: spec.name,
              description: spec.description ?? null,
              record_type: out.recordType,
              access_tier: spec.access_tier,
              tags: spec.tags,
              content_type: contentTypeOf(out.recordType, encrypted),
              size_bytes: written.sizeBytes,
              sha256: written.sha256,
              encrypted,
            },
            now,
          ),
        );
      });
      const result = {
        job_id: jobId,
        status: "succeeded",
        rows: done.rows,
        columns: done.columns,
        feature_columns: done.featureColumns,
        outputs: records,
        fitted: done.fitted,
        duration_ms: durationMs,
      };
      if (!jobs.finish(jobId, "succeeded", { result, message: `wrote ${records.length} output blob(s)` })) {
        throw new Error("job left the running state before its commit");
      }
      commit.log(
        "info",
        `succeeded in ${durationMs} ms: ${done.rows} rows; outputs ${records.map((o) => `'${o.name}' = blob ${o.id}`).join(", ")}`,
      );
    })();
  } catch (err) {
    await Promise.all(placed.map((p) => files.remove(p)));
    throw err;
  }
}
