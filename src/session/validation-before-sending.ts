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
