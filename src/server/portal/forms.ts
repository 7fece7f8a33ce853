import { z } from "zod";
import { SCOPES, uuid, type FieldErrors } from "../../core/contract/index.js";

/**
 * The portal's form bodies (application/x-www-form-urlencoded, parsed by
 * @fastify/formbody) and path parameters, as zod schemas. Scopes and ids use the
 * contract's own schemas, as the API does; names follow `mdps admin`'s rules
 * (non-empty), trimmed and bounded here.
 */

/** A checkbox group arrives as one string, an array, or nothing. */
const checkboxes = z.preprocess(
  (v: unknown): unknown[] => (v === undefined ? [] : Array.isArray(v) ? (v as unknown[]) : [v]),
  z
    .array(z.enum(SCOPES, { error: "One of the chosen scopes is not a scope of this service." }))
    .min(1, "Choose at least one scope."),
);

const displayName = (what: string) =>
  z
    .string({ error: `Enter a name for the ${what}.` })
    .trim()
    .min(1, `Enter a name for the ${what}.`)
    .max(120, `Use at most 120 characters for the ${what}'s name.`);

/** Every state-changing form carries its one-time nonce (see PortalRecords.issueNonce). */
const nonce = z.string({ error: "missing" }).min(16, "missing");

export const loginForm = z.object({
  token: z
    .string({ error: "Paste the token of your login link." })
    .trim()
    .min(1, "Paste the token of your login link."),
  next: z.string().optional(),
});

export const createModelForm = z.object({ name: displayName("model"), nonce });

export const addApplicationForm = z.object({
  name: displayName("application"),
  scopes: checkboxes,
  nonce,
});

export const confirmForm = z.object({ nonce });

export const modelParams = z.object({ modelId: uuid });
export const applicationParams = z.object({ modelId: uuid, clientId: z.string().min(1).max(200) });

export type FormResult<T> = { ok: true; data: T } | { ok: false; errors: FieldErrors };

/** Parses a body or params with a schema; failures become messages per field, for the page. */
export function parseForm<S extends z.ZodType>(schema: S, input: unknown): FormResult<z.output<S>> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return { ok: true, data: result.data };
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const field = typeof issue.path[0] === "string" ? issue.path[0] : "form";
    (errors[field] ??= []).push(issue.message);
  }
  return { ok: false, errors };
}

/** A form field's raw value(s), to refill a form that failed validation. */
export function rawField(body: unknown, name: string): string[] {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string");
  return [];
}
