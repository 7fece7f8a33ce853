/** Abort signals put together: a caller's, a timeout's, a kernel interrupt's, a run's own stop. */

/** One signal that aborts with any of them; undefined when there is none. */
export function combine(...signals: (AbortSignal | undefined)[]): AbortSignal | undefined {
  const present = signals.filter((s): s is AbortSignal => s !== undefined);
  return present.length <= 1 ? present[0] : AbortSignal.any(present);
}
