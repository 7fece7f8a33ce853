/**
 * Fitted state in a service's own shape, read by meaning: scikit-learn's attribute names
 * in any case, with or without the trailing `_` (`Mean`, `mean`, `mean_`, `DataMin`),
 * in arrays per feature column or in one object per column, under any of a few container
 * names (`FittedParameters`, `fitted`, `params`...). What is found is checked with the
 * engine's own schema of that transform, so a state that does not fit is refused, never
 * applied. A service's other names map through the `fittedNames` setting.
 */
import type { FittedStateJson } from "../core/contract/job.js";
import { paramsSchemas } from "../core/contract/params.js";
import type { PreprocessingType } from "../core/contract/transform-types.js";
import { engineFitted } from "../core/engine/fitted-state.js";

/** Where a result may hold the fitted state, its keys in snake_case (the result's keys are). */
const CONTAINERS = [
  "fitted",
  "fitted_parameters",
  "fitted_params",
  "fitted_state",
  "fitted_attributes",
  "parameters",
  "params",
  "state",
  "model",
] as const;

const FEATURE_NAMES = ["featurenamesin", "featurenames", "features", "featurecolumns", "columns"];

export interface FittedContext {
  readonly type: PreprocessingType | undefined;
  /** The parameters the job was sent with (scikit-learn's defaults fill the rest). */
  readonly params: Readonly<Record<string, unknown>>;
  /** The feature columns asked for, when the state does not name them. */
  readonly featureColumns: readonly string[];
  /** A service's attribute name -> scikit-learn's (`{ Avg: "mean_" }`): the `fittedNames` setting. */
  readonly names?: Readonly<Record<string, string>> | undefined;
}

export type FittedReading = { readonly fitted: FittedStateJson } | { readonly problem: string };

/** `Mean`, `mean_`, `data_min_`, `DataMin` -> `mean`, `datamin`: the name by meaning. */
export function attributeKey(name: string): string {
  return name.replace(/[_\s-]/g, "").toLowerCase();
}

/**
 * The fitted state the result holds in a shape other than mdps's, or why none could be
 * read (undefined: the result holds nothing that looks like one).
 */
export function readFittedState(result: Record<string, unknown>, context: FittedContext): FittedReading | undefined {
  if (context.type === undefined) return undefined;
  const schema = engineFitted.options.find((o) => o.shape.type.value === context.type);
  if (schema === undefined) return undefined;
  const wanted = Object.keys(schema.shape).filter((k) => !["type", "params"].includes(k));
  const byMeaning = new Map(wanted.map((k) => [attributeKey(k), k]));
  for (const [theirs, ours] of Object.entries(context.names ?? {})) byMeaning.set(attributeKey(theirs), ours);

  for (const name of CONTAINERS) {
    const container = result[name];
    if (!isPlain(container)) continue;
    const found = attributesOf(container, byMeaning, context.featureColumns);
    if (found === undefined) continue;
    const features = found.features ?? context.featureColumns;
    const params = paramsSchemas[context.type].safeParse({ ...context.params, ...found.params });
    const candidate: Record<string, unknown> = {
      type: context.type,
      params: params.success ? params.data : context.params,
      feature_names_in_: [...features],
      n_features_in_: features.length,
    };
    for (const key of wanted) if (!(key in candidate)) candidate[key] = found.values.get(key);
    // Every attribute must be there: one left out is not guessed (a null would change the transform).
    const missing = wanted.filter((key) => candidate[key] === undefined);
    if (missing.length > 0) {
      return {
        problem:
          `its \`${name}\` holds ${[...found.values.keys()].join(", ")} but not ${missing.join(", ")}, which a ` +
          `${context.type} state needs. If the service names them otherwise, map its names to scikit-learn's with ` +
          `the fittedNames option or the profile key fitted_names, e.g. { "Avg": "mean_" }.`,
      };
    }
    // scikit-learn may count the samples once for every column.
    const seen = candidate.n_samples_seen_;
    if (context.type === "StandardScaler" && typeof seen === "number") {
      candidate.n_samples_seen_ = features.map(() => seen);
    }
    const parsed = engineFitted.safeParse(candidate);
    if (parsed.success) return { fitted: parsed.data as unknown as FittedStateJson };
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(state)"}: ${i.message}`).join("; ");
    return {
      problem:
        `its \`${name}\` holds ${[...found.values.keys()].join(", ") || "no attribute mdps recognises"}, which does not ` +
        `make a ${context.type} state (${issues}). Map the service's names to scikit-learn's with the fittedNames ` +
        `option or the profile key fitted_names, e.g. { "Avg": "mean_" }.`,
    };
  }
  return undefined;
}

/** `result` with `fitted` read from the service's own shape where it has none; `problem` when that failed. */
export function withFittedState<R extends { fitted?: FittedStateJson | undefined }>(
  result: R,
  context: FittedContext,
): { readonly result: R; readonly problem: string | undefined } {
  if (result.fitted !== undefined) return { result, problem: undefined };
  const reading = readFittedState(result, context);
  if (reading === undefined) return { result, problem: undefined };
  if ("problem" in reading) return { result, problem: reading.problem };
  return { result: { ...result, fitted: reading.fitted }, problem: undefined };
}

interface Found {
  readonly values: Map<string, unknown>;
  readonly features: readonly string[] | undefined;
  readonly params: Record<string, unknown>;
}

/** The attributes of a container: arrays per column, or one object per feature column. */
function attributesOf(
  container: Record<string, unknown>,
  byMeaning: ReadonlyMap<string, string>,
  featureColumns: readonly string[],
): Found | undefined {
  const values = new Map<string, unknown>();
  let features: readonly string[] | undefined;
  let params: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(container)) {
    const meaning = attributeKey(key);
    const ours = byMeaning.get(meaning);
    if (meaning === "params" || meaning === "parameters") {
      if (isPlain(value)) params = value;
    } else if (FEATURE_NAMES.includes(meaning) && isStrings(value)) {
      features = value;
    } else if (ours !== undefined && ours !== "feature_names_in_" && ours !== "n_features_in_") {
      values.set(ours, value);
    }
  }
  if (values.size > 0) return { values, features, params };
  // One object per feature column: { x1: { Mean: 1, Scale: 2 }, ... }.
  const columns = Object.keys(container).filter((k) => isPlain(container[k]));
  if (columns.length === 0 || !columns.every((c) => featureColumns.length === 0 || featureColumns.includes(c))) {
    return undefined;
  }
  const order = featureColumns.length > 0 ? featureColumns.filter((c) => columns.includes(c)) : columns;
  const perColumn = new Map<string, unknown[]>();
  for (const column of order) {
    for (const [key, value] of Object.entries(container[column] as Record<string, unknown>)) {
      const ours = byMeaning.get(attributeKey(key));
      if (ours === undefined) continue;
      const list = perColumn.get(ours) ?? [];
      list.push(value);
      perColumn.set(ours, list);
    }
  }
  return perColumn.size === 0 ? undefined : { values: new Map(perColumn), features: order, params };
}

function isPlain(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === "string");
}

/** Why `job.transformer()` has nothing to apply: no fitted state (and how to ask for one), or one that could not be read. */
export function noFittedState(jobId: string, problem: string | undefined): string {
  const outputs = "The job's outputs are there: job.dataframe(), job.outputs().";
  return problem === undefined
    ? `Job ${jobId}: the service returned no fitted state (its result has no \`fitted\`), so there is no transformer ` +
        `to apply to new data here. ${outputs} If the service returns it only on request, set how it is asked for: ` +
        `the fittedQuery option (e.g. { includeFittedParameters: "true" }) or the profile key fitted_query.`
    : `Job ${jobId}: the result's fitted state could not be read: ${problem} ${outputs}`;
}
