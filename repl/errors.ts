/**
 * Every failure becomes one error output: the service's title and detail when it
 * sent them, and a hint saying what to try next. Nothing here ends the session.
 */
import {
  AbortError,
  APIError,
  AuthenticationError,
  ConfigError,
  ConflictError,
  ConnectionError,
  JobCancelledError,
  JobFailedError,
  MdpsError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  TimeoutError,
  ValidationError,
} from "../src/index.js";
import { types } from "node:util";
import type { Output } from "./commands/outputs.js";

/** A mistake in what was typed: wrong arguments, unknown frame or job. */
export class ReplError extends Error {
  override readonly name = "ReplError";
  readonly hint: string | undefined;
  constructor(message: string, hint?: string) {
    super(message);
    this.hint = hint;
  }
}

/** How long after a stopped wait a second Ctrl+C cancels the job (ReplController.cancel). */
export const SECOND_CTRL_C_MS = 2000;

/**
 * Ctrl+C stopped a command while it waited on a job: only the waiting stopped, the job
 * goes on. Says so, and how to cancel it (`/cancel j7`, or Ctrl+C again at once).
 */
export class WaitStoppedError extends ReplError {
  readonly jobRef: string;
  constructor(jobRef: string, options: { what?: string | undefined; secondCtrlC?: boolean } = {}) {
    const again = options.secondCtrlC === false ? "" : ` (so does Ctrl+C again within ${SECOND_CTRL_C_MS / 1000} s)`;
    super(
      `Stopped ${options.what ?? `waiting for ${jobRef}`}; the job goes on.`,
      `/cancel ${jobRef} cancels it${again}; /jobs shows how it is doing.`,
    );
    this.jobRef = jobRef;
  }
}

export function isAbort(error: unknown): boolean {
  return (
    error instanceof AbortError ||
    (error instanceof Error && (error.name === "AbortError" || (error as { code?: unknown }).code === "ABORT_ERR"))
  );
}

export function errorOutput(error: unknown): Extract<Output, { type: "error" }> {
  if (error instanceof ReplError) return { type: "error", title: error.message, hint: error.hint };
  // Ctrl+C stops this process's part only: what already reached the service stays there.
  // Commands that wait on a job say so themselves (WaitStoppedError, a ReplError).
  if (isAbort(error))
    return {
      type: "error",
      title: "Stopped.",
      hint: "Ctrl+C stopped the command here; anything it had already sent to the service (an upload, a job) stays there: /blobs and /jobs list them.",
    };
  if (error instanceof ValidationError && error.status === undefined) {
    // Found on this machine (nothing was sent): not a response of the service, so no status to show.
    const fields = Object.entries(error.errors ?? {}).map(([path, messages]) => `${path}: ${messages.join("; ")}`);
    return {
      type: "error",
      title: "Invalid input, checked before sending: nothing was sent.",
      hint: apiHint(error),
      fields: fields.length > 0 ? fields : [error.message],
    };
  }
  if (error instanceof APIError) {
    const fields = error.errors
      ? Object.entries(error.errors).map(([path, messages]) => `${path}: ${messages.join("; ")}`)
      : undefined;
    return {
      type: "error",
      title: `${error.status ?? ""} ${error.title ?? error.name}`.trim(),
      detail:
        [error.detail, error.requestId ? `(request ${error.requestId})` : undefined].filter(Boolean).join(" ") ||
        undefined,
      hint: apiHint(error),
      fields,
    };
  }
  if (error instanceof JobCancelledError) {
    return {
      type: "error",
      title: `Job ${error.jobId} was cancelled, so it has no result.`,
      detail: error.detail,
      hint: "Send it again (/preprocess) if you still need its result.",
    };
  }
  if (error instanceof JobFailedError) {
    return {
      type: "error",
      title: `Job ${error.status === "timed_out" ? "timed out" : error.status === "cancelled" ? "cancelled" : "failed"}: ${error.title}`,
      detail: error.detail,
      hint: "Read the job's log with /logs <job>; fix the input or parameters and run /preprocess again.",
    };
  }
  if (error instanceof ConnectionError) {
    return {
      type: "error",
      title: "Cannot reach the service.",
      detail: error.message,
      hint: "Check the URL and that the service runs; /health tries again.",
    };
  }
  if (error instanceof TimeoutError) {
    return {
      type: "error",
      title: "Timed out.",
      detail: error.message,
      hint: "Try again; a slow service may need a longer timeout.",
    };
  }
  if (error instanceof ConfigError) {
    return {
      type: "error",
      title: "Incomplete configuration.",
      detail: error.message,
      hint: "Set the MDPS_* variables or pass --profile; or use the local service (--local).",
    };
  }
  if (error instanceof MdpsError) return { type: "error", title: error.message };
  // Errors thrown by typed JavaScript come from the vm context's realm: not `instanceof Error`.
  if (error instanceof Error || types.isNativeError(error)) {
    const { name, message } = error;
    return { type: "error", title: `${name || "Error"}: ${message}` };
  }
  return { type: "error", title: `Error: ${String(error)}` };
}

function apiHint(error: APIError): string | undefined {
  if (error.remedy !== undefined) return error.remedy;
  // The service's detail, shown above, already said what to do (the client found it there).
  if (error instanceof PayloadTooLargeError && error.detail !== undefined) return undefined;
  if (error instanceof ValidationError && error.call !== undefined)
    return "The service refused the request: fix what it names above (/help <command> lists the options).";
  if (error instanceof ValidationError)
    return "Fix the fields listed; /help preprocess lists each transform's parameters.";
  if (error instanceof AuthenticationError)
    return "The credentials were refused or the token expired: check MDPS_CLIENT_ID / MDPS_CLIENT_SECRET or the --profile.";
  if (error instanceof PermissionDeniedError)
    return "The application lacks a scope for this call; ask an administrator to assign it.";
  if (error instanceof NotFoundError)
    return "The id is unknown to this model: /blobs and /jobs list what this session made.";
  if (error instanceof ConflictError && /\/blob\//.test(error.call ?? ""))
    return "The service refused the blob in its current state (an archive or cold access tier must be rehydrated first): see its message above.";
  if (error instanceof ConflictError)
    return "The job has no result yet or failed: /jobs shows its state, /logs <job> its log.";
  if (error instanceof RateLimitError) return "The service is busy; wait a moment and try again.";
  if ((error.status ?? 0) >= 500) return "The service failed; try again, and quote the request id if it persists.";
  return "Check the command's arguments: /help <command>.";
}
