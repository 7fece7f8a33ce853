/**
 * A fitted pipeline: each step's fitted state, applied here with the service's engine.
 * On the data the pipeline was fitted on, `transform` gives the last job's output bit
 * for bit (each step's `transformWith` reproduces its job's output exactly, and step
 * i+1 was fitted on exactly that); on new data, what the chain of jobs would give.
 *
 * Its JSON (`toJSON()`, read back by `Pipeline.fromJSON`) is a plain file a colleague
 * applies without the service: `{format: "mdps-pipeline", version: 1, columns, steps}`,
 * each step `{type, params, columns, job_id, fitted}` with the fitted state exactly as
 * the job result carries it (numbers in shortest round-trip form, so a reload is exact).
 */
import { z } from "zod";
import { fittedState, type FittedStateJson } from "../../core/contract/job.js";
import { EngineError, engineFitted } from "../../core/engine/index.js";
import { transforms } from "../../core/engine/registry.js";
import type { Table } from "../../core/formats/table.js";
import { RichValue } from "../presentation/rich-value.js";
import { presentation } from "../presentation/registry.js";
import { formatFieldErrors } from "../../client/error-factory.js";
import { ValidationError, type FieldErrors } from "../../client/errors.js";
import { explainIssues, fieldErrorsOf } from "../../core/errors/zod-issues.js";
import { describeStep } from "./steps.js";
import { frameShape, toDataFrame, type DanfoModule, type DataFrame } from "../table-io.js";
import { Transformer } from "../transformer.js";
import type { Blob } from "../blob.js";
import type { Job } from "../job/job.js";

export const PIPELINE_FORMAT = "mdps-pipeline";
export const PIPELINE_VERSION = 1;

const fittedStepSchema = z.object({
  type: z.string(),
  params: z.record(z.string(), z.unknown()),
  /** The feature columns the step transformed, in order. */
  columns: z.array(z.string()).min(1),
  /** The job that fitted it; null for a step fitted elsewhere. */
  job_id: z.string().nullable(),
  fitted: fittedState,
});

/** The saved form of a fitted pipeline (version 1). */
export const fittedPipelineJson = z.object({
  format: z.literal(PIPELINE_FORMAT, { error: `must be "${PIPELINE_FORMAT}" (is this an mdps pipeline file?)` }),
  version: z.literal(PIPELINE_VERSION, {
    error: `must be ${PIPELINE_VERSION}: this version of mdps reads pipeline files of version ${PIPELINE_VERSION}`,
  }),
  /** The input's columns, in order, when the pipeline was fitted. */
  columns: z.array(z.string()),
  steps: z.array(fittedStepSchema).min(1, "a pipeline has at least one step"),
});
export type FittedPipelineJson = z.infer<typeof fittedPipelineJson>;
export type FittedStepJson = z.infer<typeof fittedStepSchema>;

/**
 * Reads and checks a saved pipeline: the file's shape, then every step's fitted state
 * against its transform's schema (the engine's), so a hand-edited or truncated file
 * fails here, naming the field, instead of in the middle of a transform.
 */
/** A saved pipeline's field as the file spells it: `steps.0.fitted.scale_`. */
const dotted = (path: readonly PropertyKey[]): string => path.map(String).join(".");

export function parseFittedPipeline(json: unknown): FittedPipelineJson {
  const parsed = fittedPipelineJson.safeParse(typeof json === "string" ? parseText(json) : json);
  if (!parsed.success) throw invalidFile(fieldErrorsOf(explainIssues(parsed.error.issues), dotted));
  const errors: Record<string, string[]> = {};
  parsed.data.steps.forEach((step, i) => {
    const at = `steps.${i}`;
    const state = engineFitted.safeParse(step.fitted);
    if (!state.success) {
      for (const [path, messages] of Object.entries(fieldErrorsOf(explainIssues(state.error.issues), dotted)))
        (errors[`${at}.fitted.${path}`] ??= []).push(...messages);
    } else if (state.data.type !== step.type) {
      (errors[`${at}.type`] ??= []).push(`is ${step.type} but its fitted state is a ${state.data.type}`);
    } else if (state.data.feature_names_in_.join("\u0000") !== step.columns.join("\u0000")) {
      (errors[`${at}.columns`] ??= []).push(
        `are [${step.columns.join(", ")}] but the fitted state was fitted on [${state.data.feature_names_in_.join(", ")}]`,
      );
    }
  });
  if (Object.keys(errors).length > 0) throw invalidFile(errors);
  return parsed.data;
}

function parseText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw invalidFile({ "": [`is not JSON: ${error instanceof Error ? error.message : String(error)}`] });
  }
}

/** A ValidationError (code `invalid_pipeline_json`) naming each bad field of a saved pipeline. */
function invalidFile(errors: FieldErrors): ValidationError {
  return new ValidationError({
    code: "invalid_pipeline_json",
    message:
      `The pipeline JSON is invalid, so nothing was applied: ${formatFieldErrors(errors)}. ` +
      `Save the fitted pipeline again with JSON.stringify(fitted), or correct the fields named above.`,
    title: "Invalid pipeline JSON",
    detail: "checked when read",
    errors,
  });
}

export class FittedPipeline extends RichValue {
  /** Each step's fitted transform, in order. */
  readonly transformers: readonly Transformer[];
  /** The input's columns, in order, when it was fitted. */
  readonly columns: readonly string[];
  /** The job that fitted each step (null: unknown). */
  readonly jobIds: readonly (string | null)[];
  /** The jobs that fitted it, when fitted in this process (not when read from JSON). */
  readonly jobs: readonly Job[];
  /** The last job's output blob (the chain's output on the service), when fitted in this process. */
  readonly output: Blob | undefined;
  readonly #danfo: DanfoModule;

  /** Made by `pipeline.fit()` and `Pipeline.fromJSON()`, which load danfo first. */
  constructor(json: FittedPipelineJson, danfo: DanfoModule, origin?: { jobs: readonly Job[]; output: Blob }) {
    super();
    this.#danfo = danfo;
    this.jobs = origin?.jobs ?? [];
    this.output = origin?.output;
    this.columns = json.columns;
    this.jobIds = json.steps.map((s) => s.job_id);
    this.transformers = json.steps.map((s) => new Transformer(s.fitted, danfo));
  }

  get steps(): number {
    return this.transformers.length;
  }

  /** Whether `inverseTransform` can run: every step has an inverse (Binarizer and Normalizer have none). */
  get invertible(): boolean {
    return this.transformers.every((t) => typeof transforms[t.fitted.type].inverse === "function");
  }

  /** Every column some step transformed, in the order of the input. */
  get featureNames(): readonly string[] {
    const features = new Set(this.transformers.flatMap((t) => t.featureNames));
    return [...this.columns.filter((c) => features.has(c)), ...[...features].filter((f) => !this.columns.includes(f))];
  }

  /** A new DataFrame: each step's columns transformed in turn, the others and the column order unchanged. */
  transform(df: DataFrame): DataFrame {
    return this.#frame(df, (table) => this.transformTable(table));
  }

  /**
   * A new DataFrame mapped back to the units of the data the pipeline was fitted on: each
   * step's inverse, last step first (scikit-learn's `Pipeline.inverse_transform`). Throws
   * an EngineError naming the step when one has no inverse (Binarizer, Normalizer).
   */
  inverseTransform(df: DataFrame): DataFrame {
    return this.#frame(df, (table) => this.inverseTransformTable(table));
  }

  transformTable(table: Table): Table {
    return this.transformers.reduce((t, step, i) => this.#step(i, () => step.transformTable(t)), table);
  }

  inverseTransformTable(table: Table): Table {
    const stuck = this.transformers.findIndex((t) => typeof transforms[t.fitted.type].inverse !== "function");
    if (stuck >= 0) {
      const type = this.transformers[stuck]!.type;
      throw new EngineError(
        `Step ${stuck + 1} (${type}) has no inverse_transform (scikit-learn's has none either), so this pipeline cannot map values back to the original units.`,
      );
    }
    return this.transformers.reduceRight((t, step, i) => this.#step(i, () => step.inverseTransformTable(t)), table);
  }

  #step(index: number, apply: () => Table): Table {
    try {
      return apply();
    } catch (error) {
      if (error instanceof EngineError) {
        throw new EngineError(`Step ${index + 1} (${this.transformers[index]!.type}): ${error.message}`);
      }
      throw error;
    }
  }

  #frame(df: DataFrame, apply: (table: Table) => Table): DataFrame {
    const shape = frameShape(df);
    const features = new Set(this.featureNames);
    const table = apply(this.#danfo.tableFromDataFrame(df));
    const dtypes = Object.fromEntries(Object.entries(shape.dtypes).filter(([name]) => !features.has(name)));
    return toDataFrame(this.#danfo, table, { dtypes });
  }

  /** The saved form: `JSON.stringify(fitted)` and `Pipeline.fromJSON(text)` round-trip it exactly. */
  toJSON(): FittedPipelineJson {
    return {
      format: PIPELINE_FORMAT,
      version: PIPELINE_VERSION,
      columns: [...this.columns],
      steps: this.transformers.map((t, i) => ({
        type: t.type,
        params: t.fitted.params,
        columns: [...t.featureNames],
        job_id: this.jobIds[i] ?? null,
        fitted: t.fitted satisfies FittedStateJson,
      })),
    };
  }

  toString(): string {
    return `FittedPipeline(${this.transformers.map((t) => describeStep({ type: t.type, columns: t.featureNames })).join(" | ")})`;
  }

  /** Compact HTML for notebooks: one row per step, and each step's fitted state. */
  toHTML(): string {
    return presentation().html.fittedPipeline(
      this.transformers.map((t, i) => ({
        type: t.type,
        columns: t.featureNames,
        jobId: this.jobIds[i] ?? null,
        fitted: t.fitted,
      })),
    );
  }
}
