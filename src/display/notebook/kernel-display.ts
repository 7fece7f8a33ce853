/**
 * Finding the running notebook kernel's own display: tslab's, without importing tslab,
 * or Deno's (deno-kernel.ts).
 *
 * Importing `tslab` from this package would load a second copy whose display is never
 * connected to the kernel ("Not ready"). The kernel itself publishes its module loader
 * on `globalThis.__tslab__.require`, and that loader answers `require("tslab")` with
 * the kernel's own instance (tslab's executor hooks exactly that name). So inside a
 * tslab cell we borrow that instance; inside Deno's kernel we use `Deno.jupyter`;
 * anywhere else (plain Node, vitest, the REPL) there is none and callers fall back to text.
 */
import { findDenoKernel } from "./deno-kernel.js";
import type { NotebookDisplay, NotebookKernel } from "./kernel-types.js";

export type { NotebookDisplay, NotebookKernel };

interface TslabGlobal {
  require?: (id: string) => unknown;
}

let override: NotebookKernel | null | undefined;

function isKernel(value: unknown): value is NotebookKernel {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Partial<NotebookKernel>;
  return typeof candidate.newDisplay === "function" && typeof candidate.display === "object";
}

function findTslabKernel(): NotebookKernel | undefined {
  const tslab = (globalThis as { __tslab__?: TslabGlobal }).__tslab__;
  if (typeof tslab?.require !== "function") return undefined;
  try {
    const kernel = tslab.require("tslab");
    return isKernel(kernel) ? kernel : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The notebook kernel this code runs in (tslab or Deno), or undefined outside a notebook.
 * Never throws: a broken or unfamiliar kernel counts as "no notebook".
 */
export function findKernel(): NotebookKernel | undefined {
  if (override !== undefined) return override ?? undefined;
  return findTslabKernel() ?? findDenoKernel();
}

/** True when running inside a notebook cell (tslab or Deno). */
export function inNotebook(): boolean {
  return findKernel() !== undefined;
}

/**
 * A fresh display handle in the current cell, or undefined outside a notebook.
 * Writing to the handle again replaces its output instead of appending.
 */
export function newKernelDisplay(): NotebookDisplay | undefined {
  const kernel = findKernel();
  if (!kernel) return undefined;
  try {
    return kernel.newDisplay();
  } catch {
    return undefined;
  }
}

/**
 * Replaces kernel detection, for tests and for hosts that render HTML themselves
 * (pass `null` to force "no notebook", `undefined` to restore detection).
 */
export function setNotebookKernel(kernel: NotebookKernel | null | undefined): void {
  override = kernel;
}

/** Resolves when `pending` settles or after `maxMs`, whichever comes first; never rejects. */
export async function settleWithin(pending: Promise<unknown>, maxMs: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, maxMs);
    // Node's timers can be unref'd (a wait never holds the process open); Deno's web timers are plain numbers.
    (timer as { unref?: () => void }).unref?.();
  });
  try {
    await Promise.race([pending.catch(() => undefined), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * How long a call that ends with output waits for the kernel to take it: Deno's `display()`
 * resolves once the message is queued (at once since Deno 2.9, after sending it in older
 * kernels), and a kernel that has died must not hold the cell for long.
 */
export const OUTPUT_WAIT_MS = 5000;

/**
 * Resolves once every output mdps sent to the notebook has left the process, or after
 * `maxMs`; at once outside a notebook and on kernels that send synchronously (tslab).
 * An mdps call that ends with output awaits this before it settles, so Deno's kernel
 * cannot report the cell finished while that output is still on its way. Never rejects.
 */
export async function outputsSent(maxMs = OUTPUT_WAIT_MS): Promise<void> {
  let pending: Promise<void> | undefined;
  try {
    pending = findKernel()?.settled?.();
  } catch {
    return;
  }
  if (pending) await settleWithin(pending, maxMs);
}
