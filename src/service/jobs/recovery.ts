import type { JobExecutionLogContainer } from "../../contract/index.js";
import { MAX_ATTEMPTS, type JobStore } from "../store/jobs.js";
import { KEYS_LOST } from "./job-keys.js";

/**
 * Restart recovery: a job still `running` at start-up was interrupted. It runs again
 * unless it had keys (they died with the process) or used up its attempts.
 */
export function recoverInterrupted(jobs: JobStore, container: JobExecutionLogContainer): void {
  for (const job of jobs.runningIds()) {
    if (job.attempts >= MAX_ATTEMPTS) {
      const error = {
        title: "Interrupted too often",
        detail: `The job was interrupted by a service restart during each of its ${job.attempts} attempts and was given up. Submit it again.`,
      };
      jobs.finish(job.id, "failed", { error });
      jobs.log(job.id, "error", error.detail, container);
    } else if (job.had_keys) {
      jobs.finish(job.id, "failed", { error: KEYS_LOST });
      jobs.log(job.id, "error", KEYS_LOST.detail, container);
    } else {
      jobs.requeue(job.id, `requeued after a service restart interrupted attempt ${job.attempts}`);
      jobs.log(
        job.id,
        "warning",
        `attempt ${job.attempts} was interrupted by a service restart; the job is queued again`,
        container,
      );
    }
  }
}
