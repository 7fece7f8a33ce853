/**
 * The kernel's stop button as an AbortSignal. Jupyter sends both kernels SIGINT. tslab
 * rejects the running cell, but promises the cell started go on: a job wait would keep
 * polling, and redraw its live status, under the cells that run next. Deno's kernel cannot
 * stop a cell and dies on a SIGINT nobody listens for. So waits, uploads and downloads
 * listen for SIGINT while they run and stop with it (session/kernel-stoppable.ts): the cell
 * then ends with their AbortError, and Deno's kernel lives on. Only inside a notebook
 * kernel: anywhere else a listener would stop Ctrl+C from ending the process. One process
 * listener serves every wait, however many run at once.
 */
import { inNotebook } from "./kernel-display.js";

export interface KernelInterrupt {
  /** Aborts when the kernel is interrupted. */
  readonly signal: AbortSignal;
  /** Stops listening; call when the wait is over. */
  release(): void;
}

const waits = new Set<AbortController>();
let listening = false;

function onInterrupt(): void {
  for (const wait of waits) wait.abort(new Error("the kernel was interrupted"));
  waits.clear();
  stopListening();
}

// Not at once: tslab runs a cell's synchronous part under vm's breakOnSigint, and a
// SIGINT listener added while that runs leaves Node with no signal handler once it
// returns (the next interrupt kills the kernel: reproduced on Node 20.20 with vm alone).
// By the next turn of the event loop the cell's synchronous part is over.
function startListeningSoon(): void {
  setImmediate(() => {
    if (waits.size > 0 && !listening) {
      listening = true;
      process.on("SIGINT", onInterrupt);
    }
  });
}

function stopListening(): void {
  if (!listening) return;
  listening = false;
  process.off("SIGINT", onInterrupt);
}

/** Listens for the kernel's interrupt until `release()`, or undefined outside a notebook. */
export function listenForKernelInterrupt(): KernelInterrupt | undefined {
  if (!inNotebook()) return undefined;
  const controller = new AbortController();
  waits.add(controller);
  startListeningSoon();
  return {
    signal: controller.signal,
    release: () => {
      waits.delete(controller);
      if (waits.size === 0) stopListening();
    },
  };
}
