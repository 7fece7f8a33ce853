import type { JobResult } from "../../core/contract/index.js";
import { fittedHtml } from "../render/fitted.js";
import { resultHtml, resultText } from "../render/records.js";
import { withJupyterDisplay } from "./rich-inspect.js";

/** The result, and its fitted state, render as a Deno notebook cell's value as `show()` draws them. */
export function displayableResult(result: JobResult): JobResult {
  if (result.fitted) withJupyterDisplay(result.fitted, fittedHtml, (fitted) => `${fitted.type} fitted state`);
  return withJupyterDisplay(result, resultHtml, resultText);
}
