/**
 * Pipelines: several transforms fitted as one, each step a job on the service that
 * reads the previous job's output blob. Steps on the same columns chain like
 * scikit-learn's `Pipeline`; steps on different columns act like its
 * `ColumnTransformer(remainder="passthrough")`, since every job passes the columns it
 * does not transform through unchanged. One difference: mdps keeps the input's column
 * order (each job does), where a ColumnTransformer puts the transformed columns first,
 * in transformer order, then the remainder (docs/session.md#pipelines).
 */
import { RichValue } from "../presentation/rich-value.js";
import { presentation } from "../presentation/registry.js";
import type { ProgressMode } from "../presentation/views.js";
import type { Blob } from "../blob.js";
import { FittedPipeline, parseFittedPipeline } from "./fitted.js";
import { PipelineRun, type PipelineRunOptions } from "./run.js";
import type { SessionContext } from "../session-context.js";
import type { SessionReach } from "../session-reach.js";
import { checkSteps, describeColumns, describeStep, type AnyPipelineStep, type PipelineStep } from "./steps.js";
import { loadDanfo, type DataFrame, type Uploadable } from "../table-io.js";

export interface PipelineFitOptions extends PipelineRunOptions {
  /**
   * Live status of the chain: `auto` (default) a card with a row per step in a tslab
   * notebook and nothing elsewhere; `text` lines on stderr; `none`/false nothing.
   */
  readonly progress?: ProgressMode | false | undefined;
}

/**
 * Steps to fit as a chain of jobs (`session.pipeline(steps)`); checked when made
 * (transform names and params, with "did you mean"), and against the input's columns
 * before anything is uploaded.
 *
 * @example
 * const pipeline = session.pipeline([
 *   { type: "PowerTransformer", columns: ["income", "debt"] },
 *   { type: "StandardScaler", columns: ["income", "debt"] },
 *   { type: "QuantileTransformer", params: { n_quantiles: 100 }, columns: ["age"] },
 * ]);
 * const fitted = await pipeline.fit(train);
 * const testScaled = fitted.transform(test);
 * writeFileSync("pipeline.json", JSON.stringify(fitted));
 */
export class Pipeline extends RichValue {
  readonly steps: readonly PipelineStep[];
  readonly #ctx: SessionContext<SessionReach>;

  /** Made by `session.pipeline(steps)`. */
  constructor(ctx: SessionContext<SessionReach>, steps: readonly AnyPipelineStep[]) {
    super();
    checkSteps(steps);
    this.#ctx = ctx;
    this.steps = steps.map((s) => ({
      type: s.type,
      ...(s.params !== undefined ? { params: { ...s.params } } : {}),
      ...(s.columns !== undefined ? { columns: [...s.columns] } : {}),
    }));
  }

  /**
   * Starts fitting on `input` (a DataFrame, a file path, bytes, or a Blob already on the
   * service) and returns the run at once: its `state` (a view per step), `subscribe`,
   * `cancel()` and `done`. `fit` is this plus a live card and the fitted pipeline.
   */
  start(input: Uploadable | Blob, options: PipelineRunOptions = {}): PipelineRun {
    return new PipelineRun(this.#ctx, this.steps, input, options);
  }

  /**
   * Fits every step as a job, in order, each on the previous job's output, and returns
   * the fitted pipeline. A job that fails, times out or is cancelled stops the chain:
   * this rejects with a PipelineStepError naming the step (no later step is started).
   * Aborting `signal` (or a notebook kernel interrupt) cancels the running job.
   */
  async fit(input: Uploadable | Blob, options: PipelineFitOptions = {}): Promise<FittedPipeline> {
    return this.#shown(this.start(input, options), options, (run) => run.fitted());
  }

  /**
   * Fits, and returns the last job's output as a DataFrame: the whole chain's output,
   * downloaded once. Needs no fitted state, so it works on a service whose results carry
   * none (where `fit` cannot make a fitted pipeline).
   */
  async fitTransform(input: Uploadable | Blob, options: PipelineFitOptions = {}): Promise<DataFrame> {
    const run = this.start(input, options);
    const { output, features } = await this.#shown(run, options, (r) => r.done);
    return output.download({ numericColumns: features, signal: options.signal });
  }

  /** `until(run)`, with the run's live card shown meanwhile (and left in its final state). */
  async #shown<T>(run: PipelineRun, options: PipelineFitOptions, until: (run: PipelineRun) => Promise<T>): Promise<T> {
    return presentation().followPipeline({
      progress: options.progress,
      heading: `mdps pipeline · ${this.steps.length} steps`,
      state: () => run.state,
      subscribe: (listener) => run.subscribe(listener),
      until: () => until(run),
    });
  }

  /**
   * A fitted pipeline read back from its JSON (`fitted.toJSON()`, or the text of a file
   * saved with `JSON.stringify(fitted)`): applied here, no service needed. The JSON is
   * checked first (zod); a bad file is a ValidationError naming the field.
   *
   * @example
   * const fitted = await Pipeline.fromJSON(readFileSync("pipeline.json", "utf8"));
   * const scaled = fitted.transform(df);
   */
  static async fromJSON(json: unknown): Promise<FittedPipeline> {
    const parsed = parseFittedPipeline(json);
    return new FittedPipeline(parsed, await loadDanfo());
  }

  toString(): string {
    return `Pipeline(${this.steps.map(describeStep).join(" | ")})`;
  }

  toHTML(): string {
    return presentation().html.pipeline(
      this.steps.map((s) => ({ type: s.type, columns: describeColumns(s.columns), params: s.params })),
    );
  }
}
