/**
 * One attempt of an HTTP call: its timeout and the caller's AbortSignal as one signal,
 * and what a failure of the attempt means (aborted, timed out, or no connection).
 */
import { AbortError, ConnectionError, MdpsError, TimeoutError } from "./errors.js";

/**
 * The signal of one attempt: fires on the caller's abort or on the timeout, and
 * remembers which, so the error says "timed out" or "aborted" correctly.
 */
export class AttemptSignal {
  readonly #controller = new AbortController();
  readonly #timer: NodeJS.Timeout;
  readonly #outer: AbortSignal | undefined;
  readonly #timeoutMs: number;
  readonly #connectionHint: string;
  readonly #onOuterAbort = () => this.#controller.abort(this.#outer?.reason);
  #timedOut = false;

  constructor(outer: AbortSignal | undefined, timeoutMs: number, connectionHint: string) {
    this.#outer = outer;
    this.#timeoutMs = timeoutMs;
    this.#connectionHint = connectionHint;
    this.#timer = setTimeout(() => {
      this.#timedOut = true;
      this.#controller.abort(new Error("timeout"));
    }, timeoutMs);
    outer?.addEventListener("abort", this.#onOuterAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /**
   * Stops the timer. A streamed body stays tied to the caller's signal (so aborting
   * still stops a download) unless the attempt is over.
   */
  done(keepOuter: boolean): void {
    clearTimeout(this.#timer);
    if (!keepOuter) this.release();
  }

  release(): void {
    this.#outer?.removeEventListener("abort", this.#onOuterAbort);
  }

  translate(error: unknown, call: string, url: string): MdpsError {
    if (this.#outer?.aborted)
      return new AbortError(`${call} was aborted by its AbortSignal.`, { cause: this.#outer.reason });
    const code = (error as { code?: string }).code;
    if (this.#timedOut || code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT") {
      return new TimeoutError(
        `${call} timed out after ${this.#timeoutMs} ms. Pass a larger \`timeoutMs\`, or check that the service is not overloaded.`,
        this.#timeoutMs,
        { cause: error },
      );
    }
    if (error instanceof MdpsError) return error;
    const origin = new URL(url).origin;
    return new ConnectionError(
      `${call}: could not reach ${origin}${code ? ` (${code})` : ""}. ${this.#connectionHint}`,
      { cause: error },
    );
  }
}

export const DEFAULT_CONNECTION_HINT =
  "Check that the service is running and the URL (MDPS_BASE_URL / MDPS_AUTH_URL) is right.";
