import type { z } from "zod";
import type { FieldErrors } from "./problems.js";

type Issue = z.core.$ZodIssue;

/** `["output", 0, "name"]` -> `output[0].name`; the whole value is `$`. */
export function fieldPath(path: ReadonlyArray<PropertyKey>, prefix = ""): string {
  let out = prefix;
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out || "$";
}

/** A message that says what is needed, without echoing the submitted value. */
function message(issue: Issue): string {
  if (issue.code === "invalid_type" && /received undefined$/.test(issue.message)) {
    return issue.expected === "nonoptional" ? "is required" : `is required (${issue.expected})`;
  }
  if (issue.code === "unrecognized_keys") {
    return `unknown field(s) ${issue.keys.map((k) => `'${k}'`).join(", ")}; remove them`;
  }
  return issue.message;
}

/** Groups zod issues by field path (unknown keys are reported at the key's own path). */
export function issuesToFieldErrors(issues: readonly Issue[], prefix = ""): FieldErrors {
  // A Map, not an object literal: a submitted key named `constructor` or `toString`
  // would otherwise find Object.prototype's member instead of a list.
  const errors = new Map<string, string[]>();
  const add = (path: string, text: string) => {
    const list = errors.get(path);
    if (list) list.push(text);
    else errors.set(path, [text]);
  };
  for (const issue of issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) add(fieldPath([...issue.path, key], prefix), "is not a known field; remove it");
    } else {
      add(fieldPath(issue.path, prefix), message(issue));
    }
  }
  return Object.fromEntries(errors);
}
