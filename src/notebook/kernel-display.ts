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

/** The part of tslab's `Display` mdps uses: one output that can be replaced in place. */
export interface NotebookDisplay {
  html(html: string): void;
  text(text: string): void;
  svg?(svg: string): void;
  /** Resolves once what was written has left the process (Deno's display sends asynchronously). */
  settled?(): Promise<void>;
}

/** The part of the `tslab` module mdps uses (Deno's kernel is adapted to it). */
export interface NotebookKernel {
  newDisplay(): NotebookDisplay;
  display: NotebookDisplay;
  /** Prints text in the cell, for a kernel that does not forward process.stdout (Deno's). */
  print?(text: string): void;
}

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
