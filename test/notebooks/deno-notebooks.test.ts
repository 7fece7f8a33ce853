/**
 * Every notebook in notebooks/ in real Jupyter with Deno's kernel (`deno jupyter`,
 * installed from the deno devDependency into the test's own directory), the same
 * notebooks and expectations as on tslab (notebook-suite.ts), plus a fixture that leaves
 * each kind of value as a cell's value. Deno has a display protocol, so no output may be
 * the plain inspect text of an mdps object (`Job {`, `Session {`, ...).
 */
import { expect } from "vitest";
import { denoMissing } from "./jupyter.js";
import { notebookSuite } from "./notebook-suite.js";

const PLAIN_INSPECT = /\b(Job|Session|Blob|SvgChart|CheckReport) \{/;

await notebookSuite({
  kernel: "deno",
  tools: [{ name: "Deno", missing: denoMissing() }],
  fixtures: ["smoke.ipynb", "values.ipynb"],
  save: false,
  everyRun: ({ name, notebook }) => {
    for (const [index, cell] of notebook.cells.entries()) {
      for (const output of cell.outputs ?? []) {
        const text = [output.text, output.data?.["text/plain"]].flat().join("");
        expect(text, `${name} cell ${index} shows an mdps object as plain inspect text`).not.toMatch(PLAIN_INSPECT);
      }
    }
  },
});
