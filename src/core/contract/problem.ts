import { z } from "zod";

/** Field path -> messages: the `errors` of a validation problem (ASP.NET's ValidationProblemDetails shape). */
export const fieldErrors = z.record(z.string(), z.array(z.string()));
export type FieldErrors = z.infer<typeof fieldErrors>;

/** RFC 7807 ProblemDetails; validation errors add `errors` (field path -> messages). */
export const problemDetails = z.looseObject({
  type: z.string().optional(),
  title: z.string().optional(),
  status: z.number().int().optional(),
  detail: z.string().optional(),
  instance: z.string().optional(),
  errors: fieldErrors.optional(),
});
export type ProblemDetails = z.infer<typeof problemDetails>;

/** RFC 6749 section 5.2 error body of the token endpoint. */
export const oauthError = z.looseObject({
  error: z.string(),
  error_description: z.string().optional(),
});
export type OAuthError = z.infer<typeof oauthError>;

export const OAUTH_ERROR_CODES = [
  "invalid_request",
  "invalid_client",
  "invalid_grant",
  "unauthorized_client",
  "unsupported_grant_type",
  "invalid_scope",
] as const;
