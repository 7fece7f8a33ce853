/**
 * Executes every notebook in notebooks/ (and the smoke fixture) headless with real
 * Jupyter and the tslab kernel, the way a user runs them: `import ... from "mdps"`
 * through the package's dist/ (npm test builds it first). Fails on any error output or
 * stderr text, then checks what each notebook must show.
 *
 * Without Jupyter the suite is skipped with an install hint, except in CI (CI set),
 * where that is a failure. MDPS_SAVE_NOTEBOOKS=1 writes the executed notebooks back
 * into notebooks/ (how their committed outputs are refreshed).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyFile, mkdtemp, readdir, rm } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import {
  REPO,
  cellTexts,
  executeNotebook,
  findJupyterPython,
  installTslabKernel,
  mimeCount,
  problems,
  type ExecutedNotebook,
} from "./jupyter.js";
import { EXPECTATIONS } from "./expectations.js";

const NOTEBOOKS = join(REPO, "notebooks");
const FIXTURES = join(REPO, "test/notebooks/fixtures");
const jupyter = findJupyterPython();
const inCI = Boolean(process.env.CI);
const save = process.env.MDPS_SAVE_NOTEBOOKS === "1";
const PARALLEL = 2;

if ("missing" in jupyter && !inCI) {
  console.warn(`[notebooks] skipped: ${jupyter.missing}`);
}

const notebookFiles = existsSync(NOTEBOOKS)
  ? (await readdir(NOTEBOOKS)).filter((f) => f.endsWith(".ipynb")).sort().map((f) => join(NOTEBOOKS, f))
  : [];
const all = [join(FIXTURES, "smoke.ipynb"), ...notebookFiles];

/** Strips anything that would reach a real service: the notebooks must run on Session.local(). */
function kernelEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith("MDPS_") && !key.startsWith("VITEST") && key !== "NODE_OPTIONS") env[key] = value;
  }
  // A private home: Session.local()'s default data dir and any config file land in the temp dir.
  return { ...env, HOME: home, XDG_DATA_HOME: join(home, ".local/share"), XDG_CONFIG_HOME: join(home, ".config") };
}

describe.skipIf("missing" in jupyter && !inCI)("notebooks run top to bottom in real Jupyter with the tslab kernel", () => {
  let work = "";
  let jupyterPath = "";
  const runs = new Map<string, Promise<ExecutedNotebook>>();

  beforeAll(async () => {
    if ("missing" in jupyter) throw new Error(`Jupyter is required in CI: ${jupyter.missing}`);
    if (!existsSync(join(REPO, "dist/src/notebook/index.js"))) {
      throw new Error("dist/src/notebook/index.js is missing: the notebooks import the built package; run `npm run build` first (npm test does)");
    }
    work = await mkdtemp(join(tmpdir(), "mdps-notebooks-"));
    jupyterPath = await installTslabKernel(jupyter.python, join(work, "kernel"));
    // Two kernels at a time on two cores; each notebook awaits its own slot.
    const queue = [...all];
    const worker = async () => {
      for (let source = queue.shift(); source; source = queue.shift()) {
        const name = basename(source, ".ipynb");
        const home = join(work, `home-${name}`);
        const started = performance.now();
        const run = executeNotebook({
          python: jupyter.python,
          jupyterPath,
          source,
          dest: join(work, `${name}.executed.ipynb`),
          cwd: join(source, ".."),
          env: kernelEnv(home),
          cellTimeoutSeconds: 120,
          totalTimeoutMs: 200_000,
        });
        runs.set(source, run);
        const done = await run;
        console.log(`[notebooks] ${name}: ${((performance.now() - started) / 1000).toFixed(1)} s, exit ${done.exitCode}`);
      }
    };
    const slots = Array.from({ length: PARALLEL }, worker);
    // Tests await their own notebook; surface a crashed worker through them too.
    void Promise.all(slots);
    await new Promise((r) => setTimeout(r, 0));
  }, 120_000);

  afterAll(async () => {
    if (work && !process.env.MDPS_KEEP_NOTEBOOK_RUNS) await rm(work, { recursive: true, force: true });
  });

  async function result(source: string): Promise<ExecutedNotebook> {
    for (let i = 0; i < 3000 && !runs.has(source); i++) await new Promise((r) => setTimeout(r, 100));
    const run = runs.get(source);
    if (!run) throw new Error(`${source} never started`);
    return run;
  }

  it("has expectations for every notebook", () => {
    const names = all.map((f) => basename(f, ".ipynb"));
    expect(names.filter((n) => !(n in EXPECTATIONS))).toEqual([]);
  });

  for (const source of all) {
    const name = basename(source, ".ipynb");
    it(`${name}.ipynb`, async () => {
      const notebook = await result(source);
      expect(problems(notebook), `problems in ${name}.ipynb`).toEqual([]);
      const texts = cellTexts(notebook);
      const expectation = EXPECTATIONS[name];
      if (!expectation) throw new Error(`no expectations for ${name}.ipynb: add them to test/notebooks/expectations.ts`);
      expectation({ notebook, texts, all: texts.join("\n"), svgCount: mimeCount(notebook, "image/svg+xml") });
      if (save && source.startsWith(NOTEBOOKS)) await copyFile(join(work, `${name}.executed.ipynb`), source);
    }, 300_000);
  }
});
