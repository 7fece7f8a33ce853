import type { z } from "zod";
import { formatFieldErrors } from "../client/error-factory.js";
import { ValidationError, type FieldErrors } from "../client/errors.js";

/**
 * A ValidationError raised before anything is sent, so callers catch one class for
 * bad input whether the client or the service found it. `requestId` is undefined.
 */
export function validationBeforeSending(errors: FieldErrors, what = "The request"): ValidationError {
  return new ValidationError({
    code: "validation_failed",
    message: `${what} is invalid (checked before sending): ${formatFieldErrors(errors)}. Correct the fields named above.`,
    title: "Validation failed",
    detail: "checked before sending",
    errors,
  });
}

/** zod issues -> field errors, with paths renamed to the names the caller used. */
export function fieldErrorsOf(
  issues: readonly z.core.$ZodIssue[],
  rename: (path: string) => string = (p) => p,
): FieldErrors {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const path = rename(issue.path.map(String).join("."));
    (errors[path] ??= []).push(issue.message);
  }
  return errors;
}
