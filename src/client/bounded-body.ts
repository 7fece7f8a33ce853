/**
 * Limits on a downloaded body, so a hostile or broken service cannot fill the disk or
 * hold a download open for ever: the body stops with an error past the size it was
 * declared to have (the blob record's `size_bytes`, else `Content-Length`), and past an
 * overall deadline. undici's own timeouts are per attempt and per chunk: a drip of a
 * byte a second passes both.
 */
import { Transform, pipeline, type Readable } from "node:stream";
import { TimeoutError, UnexpectedResponseError } from "./errors.js";

export interface TransferLimits {
  /**
   * Overall limit of a download, ms, from the call until its last byte. Default
   * `downloadDeadlineMs(size)`: two minutes plus a second per 256 KiB of the expected
   * size (an hour when the size is unknown).
   */
  readonly deadlineMs?: number | undefined;
  /** The most bytes the body may have (e.g. the blob record's `size_bytes`); a longer one stops with an error. */
  readonly maxBytes?: number | undefined;
}

/** Slowest transfer the default deadline allows for, bytes per second. */
const SLOWEST_BYTES_PER_SECOND = 256 * 1024;
const DEADLINE_BASE_MS = 120_000;
const UNKNOWN_SIZE_DEADLINE_MS = 60 * 60 * 1000;

/** The default overall deadline of a download of `bytes` (undefined: size unknown). */
export function downloadDeadlineMs(bytes: number | undefined): number {
  if (bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return UNKNOWN_SIZE_DEADLINE_MS;
  return DEADLINE_BASE_MS + Math.ceil((bytes / SLOWEST_BYTES_PER_SECOND) * 1000);
}

/** `Content-Length` as a number, when it is one. */
export function declaredLength(headers: Readonly<Record<string, string>>): number | undefined {
  const value = headers["content-length"];
  return value !== undefined && /^\d+$/.test(value.trim()) ? Number(value) : undefined;
}

export interface BoundedBodyOptions {
  /** `GET /path`, for the errors. */
  readonly call: string;
  readonly status: number;
  readonly requestId: string | undefined;
  /** The limit in bytes, and what it is (for the error). */
  readonly maxBytes: number | undefined;
  readonly limitSays: string;
  /** When the deadline started (ms since the epoch) and how long it is. */
  readonly startedAt: number;
  readonly deadlineMs: number;
}

/** `body` with the size limit and the deadline applied; the source is destroyed when either stops it. */
export function boundedBody(body: Readable, options: BoundedBodyOptions): Readable {
  let seen = 0;
  const { maxBytes } = options;
  const bounded = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (maxBytes !== undefined && seen > maxBytes) {
        callback(
          new UnexpectedResponseError(
            `${options.call} sent more than ${maxBytes} bytes (${options.limitSays}), so the download was stopped there ` +
              `and nothing past it kept. The service is broken or not the one configured: check MDPS_BASE_URL, then download again.`,
            options.status,
            options.requestId,
          ),
        );
        return;
      }
      callback(null, chunk);
    },
  });
  const remaining = Math.max(0, options.startedAt + options.deadlineMs - Date.now());
  const timer = setTimeout(() => {
    bounded.destroy(
      new TimeoutError(
        `${options.call} did not finish within ${options.deadlineMs} ms (the download's deadline; ${seen} bytes arrived). ` +
          `Pass a larger \`deadlineMs\` for a slow network, or check that the service is not overloaded.`,
        options.deadlineMs,
      ),
    );
  }, remaining);
  // The deadline never keeps a process alive on its own.
  timer.unref();
  bounded.once("close", () => clearTimeout(timer));
  // Errors reach the reader through `bounded`; pipeline destroys the source with it.
  pipeline(body, bounded, () => undefined);
  return bounded;
}
