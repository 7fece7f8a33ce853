/**
 * Every notebook in notebooks/ in real Jupyter with Deno's kernel (`deno jupyter`,
 * installed from the deno devDependency into the test's own directory), the same
 * notebooks and checks as on tslab (notebook-suite.ts, run-checks.ts), plus a fixture that
 * leaves each kind of value as a cell's value.
 */
import { denoMissing } from "./jupyter.js";
import { notebookSuite } from "./notebook-suite.js";

await notebookSuite({
  kernel: "deno",
  tools: [{ name: "Deno", missing: denoMissing() }],
  fixtures: ["smoke.ipynb", "values.ipynb"],
  save: false,
});
