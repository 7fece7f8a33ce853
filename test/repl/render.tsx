/**
 * The one render helper for Ink component tests: ink-testing-library inside act(),
 * a terminal width, typed keys, and waitFor (poll an assertion) instead of sleeps.
 */
import { act, type ReactElement } from "react";
import { render as inkRender } from "ink-testing-library";

export interface Rendered {
  /** The whole screen as last drawn (static output included), without colours. */
  screen(): string;
  /**
   * Every frame drawn so far, oldest first, without colours: for what was on screen
   * only for a moment (a fast job's row in the jobs panel).
   */
  frames(): string[];
  /** Types text or key sequences (`KEYS.tab`, `KEYS.enter`, ...), one chunk per argument. */
  type(...chunks: string[]): Promise<void>;
  rerender(tree: ReactElement): void;
  unmount(): void;
}

export const KEYS = {
  enter: "\r",
  tab: "\t",
  up: "\u001B[A",
  down: "\u001B[B",
  left: "\u001B[D",
  ctrlC: "\u0003",
  ctrlD: "\u0004",
  ctrlU: "\u0015",
  backspace: "\u007F",
} as const;

// React wants to know it runs under a test renderer to allow act().
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// eslint-disable-next-line no-control-regex -- ANSI escape sequences begin with ESC
const ANSI = /\u001B\[[0-9;?]*[A-Za-z]/g;

export function render(tree: ReactElement, options: { columns?: number } = {}): Rendered {
  let instance!: ReturnType<typeof inkRender>;
  act(() => {
    instance = inkRender(tree);
  });
  if (options.columns !== undefined) {
    const columns = options.columns;
    Object.defineProperty(instance.stdout, "columns", { get: () => columns, configurable: true });
    act(() => instance.rerender(tree));
  }
  return {
    screen: () => (instance.frames.join("") === "" ? "" : (instance.lastFrame() ?? "")).replace(ANSI, ""),
    frames: () => instance.frames.map((frame) => frame.replace(ANSI, "")),
    async type(...chunks: string[]) {
      for (const chunk of chunks) {
        await act(async () => {
          instance.stdin.write(chunk);
          // Let Ink's input handler and React's batched updates run.
          await new Promise((resolve) => setImmediate(resolve));
        });
      }
    },
    rerender: (next) => act(() => instance.rerender(next)),
    unmount: () => act(() => instance.unmount()),
  };
}

/** Polls `check` (an assertion or a predicate) until it passes or `timeoutMs` ends. */
export async function waitFor(check: () => unknown, timeoutMs = 15_000, what = "condition"): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      if (check() !== false) return;
      lastError = new Error(`waitFor: ${what} still false`);
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) throw lastError;
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
  }
}
