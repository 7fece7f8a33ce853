/**
 * Calls the kernel's stop button stops: job waits, uploads, downloads. In a tslab kernel
 * an interrupt ends the cell, but a promise the cell started would run on under the next
 * cells (polling and redrawing a job's status, or a large upload for a minute or more);
 * joined to the interrupt's signal it is cancelled instead, and says what happened to
 * the job or the data. Outside a notebook this is the call itself, with the caller's
 * signal only. A call made inside another one's stop (the upload inside a preprocess) is
 * covered by it: the cell shows the outer call's one message, not one per layer.
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

/** The signals handed to calls under a kernel stop: what is called with one is already covered. */
const covered = new WeakSet<AbortSignal>();

export async function stoppableByKernel<T>(
  notice: StopNotice,
  signal: AbortSignal | undefined,
  call: (signal: AbortSignal | undefined) => Promise<T>,
): Promise<T> {
  if (signal !== undefined && covered.has(signal)) return call(signal);
  const said = `Stopped ${notice.doing}: the kernel was interrupted. ${notice.then}`;
  const interrupt = presentation().listenForKernelInterrupt(said);
  if (interrupt === undefined) return call(signal);
  const stoppable = combine(signal, interrupt.signal) ?? interrupt.signal;
  covered.add(stoppable);
  try {
    return await call(stoppable);
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

/**
 * One turn of the event loop, then throws if `signal` has aborted. Work that runs without
 * I/O holds the loop, and a signal (the kernel's stop) is only handed to its listeners
 * when the loop turns: between steps of such work, this lets a stop be heard and end it.
 */
export async function stopHeard(signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return;
  await new Promise((resolve) => setImmediate(resolve));
  signal.throwIfAborted();
}
