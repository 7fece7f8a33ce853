import { JobFailedError } from "../../client/errors.js";

/**
 * One job of a pipeline's chain ended without succeeding (failed, timed out, or was
 * cancelled, by `run.cancel()`, an aborted `signal` or anyone else), so no later step
 * was started. A JobFailedError (same `code`, `jobId`, `status`, `title`, `detail` and
 * `record` as the job's own error, which is also the `cause`) that names the step.
 *
 * @example
 * try { await pipeline.fit(train); }
 * catch (e) { if (e instanceof PipelineStepError) console.log(e.step, e.stepType, e.detail); }
 */
export class PipelineStepError extends JobFailedError {
  /** The step's number, counting from 1. */
  readonly step: number;
  /** How many steps the pipeline has. */
  readonly steps: number;
  /** The step's transform. */
  readonly stepType: string;

  constructor(init: { step: number; steps: number; stepType: string; stepText: string; error: JobFailedError }) {
    const { error } = init;
    super({ jobId: error.jobId, status: error.status, title: error.title, detail: error.detail, record: error.record });
    this.step = init.step;
    this.steps = init.steps;
    this.stepType = init.stepType;
    const done = init.step > 1 ? ` Step${init.step > 2 ? `s 1-${init.step - 1}` : " 1"} had succeeded;` : "";
    const left = init.steps - init.step;
    const notStarted =
      left > 0 ? ` step${left > 1 ? `s ${init.step + 1}-${init.steps} were` : ` ${init.steps} was`} not started.` : "";
    this.message = `Pipeline step ${init.step} of ${init.steps}, ${init.stepText}: ${error.message}${done}${notStarted}`;
    this.cause = error;
  }
}
