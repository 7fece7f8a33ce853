/**
 * The kernel's stop button as an AbortSignal. tslab turns a Jupyter interrupt into SIGINT
 * and rejects the running cell, but promises the cell started go on: a job wait would keep
 * polling, and redraw its live status, under the cells that run next. A wait listens for
 * the same SIGINT while it runs and stops with it. Only inside a tslab kernel, which
 * already handles SIGINT itself: anywhere else a listener would stop Ctrl+C from ending
 * the process.
 */
import { inNotebook } from "./kernel-display.js";

export interface KernelInterrupt {
  /** Aborts when the kernel is interrupted. */
  readonly signal: AbortSignal;
  /** Stops listening; call when the wait is over. */
  release(): void;
}

/** Listens for the kernel's interrupt until `release()`, or undefined outside a notebook. */
export function listenForKernelInterrupt(): KernelInterrupt | undefined {
  if (!inNotebook()) return undefined;
  const controller = new AbortController();
  const onInterrupt = () => controller.abort(new Error("the kernel was interrupted"));
  let released = false;
  // Not now: tslab runs a cell's synchronous part under vm's breakOnSigint, and a SIGINT
  // listener added while that runs leaves Node with no signal handler once it returns
  // (the next interrupt kills the kernel: reproduced on Node 20.20 with vm alone). By the
  // next turn of the event loop the cell's synchronous part is over.
  setImmediate(() => {
    if (!released) process.once("SIGINT", onInterrupt);
  });
  return {
    signal: controller.signal,
    release: () => {
      released = true;
      process.off("SIGINT", onInterrupt);
    },
  };
}
