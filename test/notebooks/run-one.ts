/**
 * Runs one notebook in real Jupyter, outside the suite, and saves the executed copy over
 * the source (how a notebook's committed outputs are refreshed one at a time):
 *
 *   npx tsx test/notebooks/run-one.ts notebooks/08-scalers-with-outliers.ipynb [tslab|deno]
 *
 * Prints each problem (an error output, stderr text) and exits 1 when there is one.
 */
import { copyFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import {
  executeNotebook,
  findJupyterPython,
  installDenoKernel,
  installTslabKernel,
  kernelEnv,
  problems,
  type KernelName,
} from "./jupyter.js";

const [source, kernelArg] = process.argv.slice(2);
if (!source) throw new Error("usage: npx tsx test/notebooks/run-one.ts NOTEBOOK.ipynb [tslab|deno]");
const kernel: KernelName = kernelArg === "deno" ? "deno" : "tslab";
const jupyter = findJupyterPython();
if ("missing" in jupyter) throw new Error(jupyter.missing);
const work = await mkdtemp(join(tmpdir(), "mdps-run-one-"));
try {
  const kernelDir = join(work, "kernel");
  const jupyterPath =
    kernel === "deno" ? await installDenoKernel(kernelDir) : await installTslabKernel(jupyter.python, kernelDir);
  const dest = join(work, basename(source));
  const run = await executeNotebook({
    python: jupyter.python,
    kernel,
    jupyterPath,
    source: resolve(source),
    dest,
    cwd: dirname(resolve(source)),
    env: kernelEnv(join(work, "home")),
    cellTimeoutSeconds: 180,
    totalTimeoutMs: 400_000,
  });
  const found = problems(run);
  for (const problem of found) console.log(problem);
  console.log(`${source} on ${kernel}: exit ${run.exitCode}, ${found.length} problem(s)`);
  if (kernel === "tslab" && found.length === 0) await copyFile(dest, resolve(source));
  process.exitCode = found.length === 0 ? 0 : 1;
} finally {
  await rm(work, { recursive: true, force: true });
}
