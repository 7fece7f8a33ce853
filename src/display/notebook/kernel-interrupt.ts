/**
 * The kernel's stop button as an AbortSignal. Jupyter sends both kernels SIGINT. tslab
 * rejects the running cell, but promises the cell started go on: a job wait would keep
 * polling, and redraw its live status, under the cells that run next. Deno's kernel cannot
 * stop a cell and dies on a SIGINT nobody listens for. So waits, uploads and downloads
 * listen for SIGINT while they run and stop with it (session/kernel-stoppable.ts): the cell
 * then ends with their AbortError, and Deno's kernel lives on. Only inside a notebook
 * kernel: anywhere else a listener would stop Ctrl+C from ending the process. One process
 * listener serves every wait, however many run at once.
 *
 * tslab ends the cell itself on the interrupt, printing its own "Error: Interrupted
 * asynchronously" with tslab's stack trace, before the stopped wait's error can reach the
 * cell. That one print is replaced by what the stopped waits say, so the cell shows one
 * clean message, as Deno's kernel does.
 */
import { inNotebook } from "./kernel-display.js";
import { relayLostInterrupts } from "./sigint-relay.js";

export interface KernelInterrupt {
  /** Aborts when the kernel is interrupted. */
  readonly signal: AbortSignal;
  /** Stops listening; call when the wait is over. */
  release(): void;
}

/** Each running wait, with what it says when the interrupt stops it. */
const waits = new Map<AbortController, string | undefined>();

function onInterrupt(): void {
  // A second copy of this listener (see below) finds nothing left to stop.
  if (waits.size === 0) return;
  const said = [...waits.values()].filter((text): text is string => text !== undefined);
  for (const wait of waits.keys()) wait.abort(new Error("the kernel was interrupted"));
  waits.clear();
  stopListening();
  if (isTslab()) replaceTslabTrace(said);
}

/**
 * tslab's stop pressed during a cell's compile, which Node dropped: delivered now, as Node
 * would have delivered it, to the calls running now. With none running it is dropped,
 * never kept for a later cell.
 */
function onLostInterrupt(): void {
  if (waits.size === 0) return;
  // tslab's listener first, as on a delivered stop: it ends the cell with its own error,
  // which onInterrupt's filter turns into what the stopped calls say.
  process.emit("SIGINT");
  onInterrupt();
}

function isTslab(): boolean {
  return (globalThis as { __tslab__?: unknown }).__tslab__ !== undefined;
}

// Only in tslab: Deno's kernel and a script hear every stop Node gets.
if (isTslab()) void relayLostInterrupts(onLostInterrupt);

/** How tslab's own interrupt error starts when it prints it (tslab/dist/executor.js). */
const TSLAB_TRACE = "Error: Interrupted asynchronously";
/** Past this, tslab has printed its trace or never will: the filter goes. */
const TRACE_WAIT_MS = 2000;

/** The next print of tslab's interrupt trace to stderr becomes `said`, one line each. */
function replaceTslabTrace(said: readonly string[]): void {
  const stderr = process.stderr;
  // The stream's own method, put back as it was; called with the stream as `this`.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const write = stderr.write;
  const restore = () => {
    if (stderr.write === replaced) stderr.write = write;
    clearTimeout(timer);
  };
  const replaced = function (this: unknown, chunk: unknown, ...rest: unknown[]): boolean {
    const text = typeof chunk === "string" ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString() : "";
    if (!text.startsWith(TSLAB_TRACE)) return (write as (...args: unknown[]) => boolean).call(stderr, chunk, ...rest);
    restore();
    const lines = said.length > 0 ? said : ["Stopped: the kernel was interrupted."];
    return (write as (...args: unknown[]) => boolean).call(stderr, `${lines.join("\n")}\n`, ...rest);
  } as typeof stderr.write;
  const timer = setTimeout(restore, TRACE_WAIT_MS);
  timer.unref();
  stderr.write = replaced;
}

// Not at once: tslab runs a cell's synchronous part under vm's breakOnSigint, and a
// SIGINT listener added while that runs leaves Node with no signal handler once it
// returns (the next interrupt kills the kernel: reproduced on Node 20.20 with vm alone).
// By the next turn of the event loop the cell's synchronous part is over.
// Node's vm takes every SIGINT listener off while a breakOnSigint script runs and puts back
// the ones it took, so a listener removed meanwhile comes back: whether this one listens
// is read from the process, never remembered.
function startListeningSoon(): void {
  setImmediate(() => {
    if (waits.size > 0 && !process.listeners("SIGINT").includes(onInterrupt)) process.on("SIGINT", onInterrupt);
  });
}

function stopListening(): void {
  while (process.listeners("SIGINT").includes(onInterrupt)) process.off("SIGINT", onInterrupt);
}

/**
 * Listens for the kernel's interrupt until `release()`, or undefined outside a notebook.
 * `said` is what the wait tells the user when the interrupt stops it.
 */
export function listenForKernelInterrupt(said?: string): KernelInterrupt | undefined {
  if (!inNotebook()) return undefined;
  const controller = new AbortController();
  waits.set(controller, said);
  startListeningSoon();
  return {
    signal: controller.signal,
    release: () => {
      waits.delete(controller);
      if (waits.size === 0) stopListening();
    },
  };
}
