/**
 * A session's notices (MdpsWarning) inside a notebook: a yellow line in the cell. Through
 * `process.emitWarning` they would reach tslab as a red stderr box ending in Node's
 * `--trace-warnings` hint, and Deno's kernel sends stderr late enough that a headless run
 * can lose it.
 */
import { escapeHtml } from "../render/html.js";
import { findKernel } from "./kernel-display.js";
import { WARNING_STYLE } from "../render/warnings.js";

/** Shows `message` as a notice in the running cell; false outside a notebook or when the kernel cannot display. */
export function showNotice(message: string): boolean {
  const kernel = findKernel();
  if (!kernel) return false;
  try {
    kernel.display.html(
      `<div style="${WARNING_STYLE};display:block;margin:2px 0;font-family:system-ui,sans-serif;font-size:13px">` +
        `⚠ <b>MdpsWarning</b>: ${escapeHtml(message)}</div>`,
    );
    return true;
  } catch {
    // A kernel between cells cannot display: the caller warns the usual way.
    return false;
  }
}
