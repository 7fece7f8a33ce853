/**
 * A transform's parameters checked with its schema (./params.ts), each problem as one
 * sentence that names the nearest valid name or value: `with_means` -> "did you mean
 * `with_mean`?", `norm: "L2"` -> "did you mean `l2`?". The Session, the REPL and the
 * pre-flight report use it, so a typo reads the same wherever it is made.
 */
import type { z } from "zod";
import { didYouMean } from "./nearest-name.js";
import { paramsSchemas } from "./params.js";
import { PREPROCESSING_TYPES, type PreprocessingType } from "./transform-types.js";

export interface ParamProblem {
  /** `type`, or `params.<name>` (`params` for the object as a whole). */
  readonly field: string;
  readonly message: string;
}

/** The parameter names a transform takes, in its schema's order. */
export function paramNames(type: PreprocessingType): string[] {
  const schema = paramsSchemas[type] as unknown as { shape?: Record<string, unknown> };
  return Object.keys(schema.shape ?? {});
}

/** The transform `typed` names, or a problem saying which one it probably meant. */
export function checkTransformName(typed: string): PreprocessingType | ParamProblem {
  const exact = PREPROCESSING_TYPES.find((t) => t === typed);
  if (exact !== undefined) return exact;
  return {
    field: "type",
    message:
      `unknown transform "${typed}"${didYouMean(typed, PREPROCESSING_TYPES)}; ` +
      `the transforms are ${PREPROCESSING_TYPES.join(", ")}`,
  };
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * One problem per schema issue of `params` for `type` (prefix the field with
 * `params.`), with "did you mean" for unknown names and enum values.
 */
export function explainParamIssues(
  type: PreprocessingType,
  issues: readonly z.core.$ZodIssue[],
  params: unknown,
): ParamProblem[] {
  const names = paramNames(type);
  const problems: ParamProblem[] = [];
  for (const issue of issues) {
    const field = ["params", ...issue.path.map(String)].join(".");
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        problems.push({
          field: `params.${key}`,
          message:
            `${type} has no parameter "${key}"${didYouMean(key, names)}; ` +
            (names.length > 0 ? `its parameters are ${names.join(", ")}` : "it takes no parameters"),
        });
      }
    } else if (issue.code === "invalid_value" && issue.values.every((v) => typeof v === "string")) {
      const given = valueAt(params, issue.path);
      const values = issue.values.map(String);
      const hint = typeof given === "string" ? didYouMean(given, values) : "";
      problems.push({
        field,
        message: `${JSON.stringify(given)} is not one of ${values.map((v) => `"${v}"`).join(", ")}${hint}`,
      });
    } else {
      problems.push({ field, message: issue.message });
    }
  }
  return problems;
}

/** All problems of a transform name and its params (empty when both are valid). */
export function checkParams(typed: string, params: unknown): ParamProblem[] {
  const type = checkTransformName(typed);
  if (typeof type !== "string") return [type];
  const parsed = paramsSchemas[type].safeParse(params ?? {});
  return parsed.success ? [] : explainParamIssues(type, parsed.error.issues, params);
}
