/**
 * What every executed notebook must pass, wherever it ran: in the repository's notebook
 * suites (notebook-suite.ts) or in an analyst's own project (test/install). One home, so
 * the shipped notebooks get the same checks in both.
 */
import { expect } from "vitest";
import { EXPECTATIONS } from "./expectations.js";
import { cellTexts, chartSvgs, lateMdpsOutputs, problems, type ExecutedNotebook, type KernelName } from "./jupyter.js";

/** Deno has a display protocol, so no output may be the plain inspect text of an mdps object. */
const PLAIN_INSPECT = /\b(Job|Session|Blob|SvgChart|CheckReport) \{/;

const KERNEL_CHECKS: Record<KernelName, (name: string, notebook: ExecutedNotebook) => void> = {
  tslab: () => {},
  deno: (name, notebook) => {
    for (const [index, cell] of notebook.cells.entries()) {
      for (const output of cell.outputs ?? []) {
        const text = [output.text, output.data?.["text/plain"]].flat().join("");
        expect(text, `${name} cell ${index} shows an mdps object as plain inspect text`).not.toMatch(PLAIN_INSPECT);
      }
    }
  },
};

/**
 * Fails unless `notebook` (the run `name` of a notebook, on `kernel`) ran clean: no error or
 * stderr, no mdps output after its cell ended, not `secret` anywhere, an execution count on
 * every code cell, what its expectations ask, and what its kernel asks of every run.
 */
export function checkNotebookRun(options: {
  kernel: KernelName;
  name: string;
  notebook: ExecutedNotebook;
  secret?: string | undefined;
}): void {
  const { kernel, name, notebook, secret } = options;
  expect(problems(notebook), `problems in ${name} on ${kernel}`).toEqual([]);
  // What nbconvert would have dropped: mdps's own outputs must leave before their cell ends.
  const late = lateMdpsOutputs(notebook).map(
    (o) => `cell ${o.cell} ${o.msg_type}: ${(o.text ?? "").replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").slice(0, 160)}`,
  );
  // Thrown with the outputs in the message: an assertion's own message abbreviates an array to "[ …(5) ]".
  if (late.length > 0) throw new Error(`mdps outputs sent after their cell ended in ${name}:\n${late.join("\n")}`);
  if (secret) expect(notebook.raw.includes(secret), "the client secret appears in the notebook").toBe(false);
  const uncounted = notebook.cells.filter((c) => c.cell_type === "code" && typeof c.execution_count !== "number");
  expect(uncounted.length, `code cells of ${name} without an execution count (nbconvert shows In [ ])`).toBe(0);
  const expectation = EXPECTATIONS[name];
  if (!expectation) throw new Error(`no expectations for ${name}: add them to test/notebooks/expectations.ts`);
  const texts = cellTexts(notebook);
  expectation({ notebook, texts, all: texts.join("\n"), charts: chartSvgs(notebook) });
  KERNEL_CHECKS[kernel](name, notebook);
}
