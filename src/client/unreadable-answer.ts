/**
 * A 2xx answer mdps cannot read. For a write (an upload, an update, a send) the service has
 * done it: the error then carries the id the answer holds, so the user still has a handle.
 */
import type { z } from "zod";
import { snakeRecord } from "../core/contract/normalize.js";
import { UnexpectedResponseError } from "./errors.js";

/** The keys that may hold a written record's id, in the order they are believed. */
const ID_KEYS = ["id", "blob_id", "job_id", "uuid"];

/** The id in a written record's answer (any casing, text or number), or undefined. */
export function writtenIdOf(body: unknown): string | undefined {
  const record = snakeRecord(body);
  if (typeof record !== "object" || record === null) return undefined;
  for (const key of ID_KEYS) {
    const value = (record as Record<string, unknown>)[key];
    if (typeof value === "string" && value !== "") return value;
    if (typeof value === "number") return String(value);
  }
  return undefined;
}

export function unreadableAnswer(input: {
  readonly call: string;
  readonly method: string;
  readonly status: number;
  readonly requestId: string | undefined;
  readonly body: unknown;
  readonly error: z.ZodError;
}): UnexpectedResponseError {
  const { call, status, requestId, body, error } = input;
  const issues = error.issues.map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`).join("; ");
  const id = input.method === "GET" ? undefined : writtenIdOf(body);
  const message =
    id === undefined
      ? `${call} returned a body that does not match the contract (${issues}). The service may be a different version.`
      : `${call} succeeded (${status}): the service holds it as ${id}, but mdps cannot read the rest of its answer ` +
        `(${issues}). Do not send it again; use the id (session.blob("${id}") or session.job("${id}")) and report ` +
        `the answer's shape to the mdps maintainers.`;
  return new UnexpectedResponseError(message, status, requestId, { cause: error, writtenId: id, body });
}
