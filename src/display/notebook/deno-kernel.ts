/**
 * Deno's Jupyter kernel (`deno jupyter`) seen as a NotebookKernel, so everything that
 * draws into a tslab cell (show, the live job status, charts) draws into a Deno cell too.
 *
 * Deno publishes its display function on `Deno.jupyter`, a getter that throws outside the
 * kernel. An output replaced in place is a `display_data` message with a display id,
 * then `update_display_data` messages with the same id (the Jupyter protocol's way;
 * frontends and nbclient replace the output that carries the id).
 */
import { randomUUID } from "node:crypto";
import type { NotebookDisplay, NotebookKernel } from "./kernel-types.js";

type MimeData = Record<string, string>;

interface DisplayOptions {
  raw: true;
  display_id?: string;
  update?: boolean;
}

/** The part of `Deno.jupyter` mdps uses. */
interface DenoJupyter {
  display(bundle: MimeData, options: DisplayOptions): Promise<void>;
}

function isDenoJupyter(value: unknown): value is DenoJupyter {
  return typeof value === "object" && value !== null && typeof (value as Partial<DenoJupyter>).display === "function";
}

/** `Deno.jupyter` inside Deno's kernel, undefined anywhere else (Node, `deno run`). */
function denoJupyter(): DenoJupyter | undefined {
  const deno = (globalThis as { Deno?: { readonly jupyter?: unknown } }).Deno;
  if (typeof deno !== "object") return undefined;
  try {
    const jupyter = deno.jupyter;
    return isDenoJupyter(jupyter) ? jupyter : undefined;
  } catch {
    // "Deno.jupyter is only available in `deno jupyter` subcommand"
    return undefined;
  }
}

/**
 * Every message sent and not yet handed over, from any display of this process (notices,
 * charts, cards). Deno's kernel reports a cell finished as soon as the cell's code returns,
 * without waiting for display messages still on their way, and a headless run (nbconvert)
 * drops what arrives after that; so whatever ends a cell with mdps output awaits these first.
 */
const inFlight = new Set<Promise<void>>();
let lastQueuedAt = Number.NEGATIVE_INFINITY;

/**
 * How long a message may wait in Deno's kernel after `display()` resolved. Since Deno 2.9
 * the cell runs on a thread of its own: `display()` only queues the message, and the
 * kernel's thread publishes the queue from a loop apart from the one that answers the cell,
 * so it can report the cell idle with messages still queued. Nothing tells the cell's side
 * when the queue is empty; a message queued this long ago has been taken (the kernel
 * publishes each in milliseconds; this leaves room for a loaded machine).
 */
export const KERNEL_QUEUE_MS = 250;

/** Sends at once; the promise settles when Deno has taken the message (never rejects). */
function send(jupyter: DenoJupyter, data: MimeData, options: Omit<DisplayOptions, "raw">): Promise<void> {
  // A kernel that cannot display must never fail the caller.
  const sending = jupyter.display(data, { raw: true, ...options }).catch(() => undefined);
  lastQueuedAt = performance.now();
  inFlight.add(sending);
  void sending.then(() => inFlight.delete(sending));
  return sending;
}

/** Resolves once the kernel has had the time it needs to publish what was queued last. */
async function queueDrained(): Promise<void> {
  const wait = lastQueuedAt + KERNEL_QUEUE_MS - performance.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}

/** Resolves once every message sent so far has left. */
function allSent(): Promise<void> {
  return Promise.all([...inFlight]).then(queueDrained);
}

/**
 * Each write adds an output; with an id, the first write adds it and later ones replace it.
 * Writes are not awaited, so they leave in order while the cell runs; `settled()` lets a
 * caller that ends a cell (a job wait) hold on until they have left. Deno's kernel can
 * otherwise send a cell's last output after reporting the cell finished, and nbconvert
 * drops what comes after that.
 */
function denoDisplay(jupyter: DenoJupyter, displayId?: string): NotebookDisplay {
  let shown = false;
  let sent: Promise<void> = Promise.resolve();
  const put = (data: MimeData) => {
    const sending = send(jupyter, data, displayId === undefined ? {} : { display_id: displayId, update: shown });
    sent = Promise.all([sent, sending]).then(() => undefined);
    shown = true;
  };
  return {
    settled: () => sent.then(queueDrained),
    html: (html) => {
      put({ "text/html": html });
    },
    text: (text) => {
      put({ "text/plain": text });
    },
    svg: (svg) => {
      put({ "image/svg+xml": svg });
    },
  };
}

/** The Deno kernel this code runs in, or undefined. Never throws. */
export function findDenoKernel(): NotebookKernel | undefined {
  const jupyter = denoJupyter();
  if (!jupyter) return undefined;
  const display = denoDisplay(jupyter);
  return {
    display,
    newDisplay: () => denoDisplay(jupyter, randomUUID()),
    settled: allSent,
    // Deno's kernel forwards console output to the cell, but not writes to process.stdout.
    print: (text) => {
      display.text(text);
    },
  };
}
