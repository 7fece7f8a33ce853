/**
 * The one explainer of zod issues: what the service answers in a 400's `errors`, what
 * the Session raises before sending, what the engine throws and what a transform's
 * parameter check says are all made here, so one mistake reads the same everywhere.
 * Each explanation says what is needed without echoing the submitted value (a secret
 * may be in it); an unknown key is named at its own path.
 */
import type { z } from "zod";

type Issue = z.core.$ZodIssue;

export interface IssueExplanation {
  /** Where the problem is, from the checked value's root. */
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

export interface ExplainOptions {
  /** What an unknown key at `path` is told; default "is not a known field; remove it". */
  readonly unknownKey?: ((key: string, path: readonly PropertyKey[]) => string) | undefined;
  /**
   * The value that was checked: with it, a value outside a list of words is quoted and
   * `nearest` may suggest the word meant.
   */
  readonly input?: unknown;
  /** " (did you mean `x`?)" for the nearest of `names` to `typed`, or "". */
  readonly nearest?: ((typed: string, names: readonly string[]) => string) | undefined;
}

/** `["output", 0, "name"]` -> `output[0].name`; the whole value is `$`. */
export function fieldPath(path: ReadonlyArray<PropertyKey>, prefix = ""): string {
  let out = prefix;
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out || "$";
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function message(issue: Issue, options: ExplainOptions): string {
  if (issue.code === "invalid_type" && /received undefined$/.test(issue.message)) {
    return issue.expected === "nonoptional" ? "is required" : `is required (${issue.expected})`;
  }
  if (
    issue.code === "invalid_value" &&
    "input" in options &&
    issue.values.length > 0 &&
    issue.values.every((v) => typeof v === "string")
  ) {
    const given = valueAt(options.input, issue.path);
    const values = issue.values.map(String);
    const hint = typeof given === "string" && options.nearest ? options.nearest(given, values) : "";
    return `${JSON.stringify(given)} is not one of ${values.map((v) => `"${v}"`).join(", ")}${hint}`;
  }
  return issue.message;
}

/** One explanation per problem: an issue, or each unknown key of one. */
export function explainIssues(issues: readonly Issue[], options: ExplainOptions = {}): IssueExplanation[] {
  const unknownKey = options.unknownKey ?? (() => "is not a known field; remove it");
  const out: IssueExplanation[] = [];
  for (const issue of issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) out.push({ path: [...issue.path, key], message: unknownKey(key, issue.path) });
    } else {
      out.push({ path: issue.path, message: message(issue, options) });
    }
  }
  return out;
}

/**
 * Explanations grouped by field, each path written by `name` (default `fieldPath`): the
 * `errors` of a problem+json answer and of a ValidationError.
 */
export function fieldErrorsOf(
  explanations: readonly IssueExplanation[],
  name: (path: readonly PropertyKey[]) => string = (path) => fieldPath(path),
): Record<string, string[]> {
  // A Map, not an object literal: a submitted key named `constructor` or `toString`
  // would otherwise find Object.prototype's member instead of a list.
  const errors = new Map<string, string[]>();
  for (const { path, message } of explanations) {
    const field = name(path);
    const list = errors.get(field);
    if (list) list.push(message);
    else errors.set(field, [message]);
  }
  return Object.fromEntries(errors);
}

/** Explanations as one sentence: `field: message; ...` (a problem of the whole value has no field). */
export function explanationText(explanations: readonly IssueExplanation[]): string {
  return explanations
    .map(({ path, message }) => (path.length > 0 ? `${fieldPath(path)}: ${message}` : message))
    .join("; ");
}
