/**
 * Settles with `promise`, or rejects with the signal's reason as soon as it aborts.
 * The promise itself goes on (a shared token refresh, code typed at the REPL): only
 * this caller stops waiting for it.
 */
export function raceAbort<T>(promise: PromiseLike<T>, signal: AbortSignal): Promise<T> {
  // The signal's reason and the promise's own rejection pass through unchanged: they are
  // whatever the caller aborted or the promise failed with, Error or not.
  // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passes the abort reason through as given
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passes the abort reason through as given
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener("abort", onAbort);
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passes the promise's rejection through as given
        reject(e);
      },
    );
  });
}
