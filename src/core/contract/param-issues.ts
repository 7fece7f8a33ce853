/**
 * A transform's parameters checked with its schema (./params.ts), each problem as one
 * sentence that names the nearest valid name or value: `with_means` -> "did you mean
 * `with_mean`?", `norm: "L2"` -> "did you mean `l2`?". The Session, the REPL and the
 * pre-flight report use it, so a typo reads the same wherever it is made.
 */
import type { z } from "zod";
import { explainIssues, type IssueExplanation } from "../errors/zod-issues.js";
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

/**
 * One explanation per schema issue of `params` for `type`, at its path inside `params`,
 * with "did you mean" for unknown names and enum values.
 */
export function explainParams(
  type: PreprocessingType,
  issues: readonly z.core.$ZodIssue[],
  params: unknown,
): IssueExplanation[] {
  const names = paramNames(type);
  return explainIssues(issues, {
    input: params,
    nearest: didYouMean,
    unknownKey: (key) =>
      `${type} has no parameter "${key}"${didYouMean(key, names)}; ` +
      (names.length > 0 ? `its parameters are ${names.join(", ")}` : "it takes no parameters"),
  });
}

/** explainParams' explanations as problems whose field is `params.<name>`. */
export function explainParamIssues(
  type: PreprocessingType,
  issues: readonly z.core.$ZodIssue[],
  params: unknown,
): ParamProblem[] {
  return explainParams(type, issues, params).map(({ path, message }) => ({
    field: ["params", ...path.map(String)].join("."),
    message,
  }));
}

/** All problems of a transform name and its params (empty when both are valid). */
export function checkParams(typed: string, params: unknown): ParamProblem[] {
  const type = checkTransformName(typed);
  if (typeof type !== "string") return [type];
  const parsed = paramsSchemas[type].safeParse(params ?? {});
  return parsed.success ? [] : explainParamIssues(type, parsed.error.issues, params);
}
