/**
 * Calls the kernel's stop button stops: job waits, uploads, downloads. In a tslab kernel
 * an interrupt ends the cell, but a promise the cell started would run on under the next
 * cells (polling and redrawing a job's status, or a large upload for a minute or more);
 * joined to the interrupt's signal it is cancelled instead, and says what happened to
 * the job or the data. Outside a notebook this is the call itself, with the caller's
 * signal only.
 */
import { AbortError } from "../client/errors.js";
import { presentation } from "./presentation/registry.js";
import { combine } from "./abort-signals.js";

export interface StopNotice {
  /** What was going on, e.g. `uploading "train.csv"`. */
  readonly doing: string;
  /** What the user should know next: what was kept, how to retry. */
  readonly then: string;
}

export async function stoppableByKernel<T>(
  notice: StopNotice,
  signal: AbortSignal | undefined,
  call: (signal: AbortSignal | undefined) => Promise<T>,
): Promise<T> {
  const said = `Stopped ${notice.doing}: the kernel was interrupted. ${notice.then}`;
  const interrupt = presentation().listenForKernelInterrupt(said);
  if (interrupt === undefined) return call(signal);
  try {
    return await call(combine(signal, interrupt.signal));
  } catch (error) {
    if (interrupt.signal.aborted && !signal?.aborted) {
      throw new AbortError(said, {
        cause: interrupt.signal.reason,
      });
    }
    throw error;
  } finally {
    interrupt.release();
  }
}
