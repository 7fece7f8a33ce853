/**
 * Executes every notebook in notebooks/ (and the smoke fixture) headless with real
 * Jupyter and the tslab kernel, the way a user runs them: `import ... from "mdps"`
 * through the package's dist/ (npm test builds it first). Fails on any error output or
 * stderr text, then checks what each notebook must show.
 *
 * Without Jupyter the suite is skipped with an install hint, except in CI (CI set),
 * where that is a failure (../required-tool.ts). MDPS_SAVE_NOTEBOOKS=1 writes the executed notebooks back
 * into notebooks/ (how their committed outputs are refreshed).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
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
  kernelEnv,
  chartSvgs,
  problems,
  type ExecutedNotebook,
} from "./jupyter.js";
import { EXPECTATIONS } from "./expectations.js";
import { describeWithTool } from "../required-tool.js";
import { openAdmin, startService, type RunningService } from "../../src/service/index.js";
import { SCOPES } from "../../src/contract/index.js";

const NOTEBOOKS = join(REPO, "notebooks");
const FIXTURES = join(REPO, "test/notebooks/fixtures");
const jupyter = findJupyterPython();
const save = process.env.MDPS_SAVE_NOTEBOOKS === "1";
const PARALLEL = 2;

const notebookFiles = existsSync(NOTEBOOKS)
  ? (await readdir(NOTEBOOKS)).filter((f) => f.endsWith(".ipynb")).sort().map((f) => join(NOTEBOOKS, f))
  : [];

/** One execution: a notebook, under a name, with extra kernel environment. */
interface Run {
  name: string;
  source: string;
  env: Record<string, string>;
}
const runsToDo: Run[] = [join(FIXTURES, "smoke.ipynb"), ...notebookFiles].map((source) => ({
  name: basename(source, ".ipynb"),
  source,
  env: {},
}));
// The regional notebook again, configured by environment for a real service listening
// on 127.0.0.1 (the reference service in another region): its credentialed cells run.
const REGIONAL = "05-regional-service";
const connected: Run | undefined = runsToDo.some((r) => r.name === REGIONAL)
  ? { name: `${REGIONAL}+connected`, source: join(NOTEBOOKS, `${REGIONAL}.ipynb`), env: {} }
  : undefined;
if (connected) runsToDo.push(connected);
const REGION = "eu-test-1";

describeWithTool(
  { name: "Jupyter", missing: "missing" in jupyter ? jupyter.missing : null },
  "notebooks run top to bottom in real Jupyter with the tslab kernel",
  () => {
  let work = "";
  let jupyterPath = "";
  let service: RunningService | undefined;
  let clientSecret = "";
  const runs = new Map<string, Promise<ExecutedNotebook>>();

  beforeAll(async () => {
    // Only narrows the type: describeWithTool registers this suite only when Jupyter was found.
    if ("missing" in jupyter) throw new Error(jupyter.missing);
    if (!existsSync(join(REPO, "dist/src/index.js"))) {
      throw new Error("dist/src/index.js is missing: the notebooks import the built package; run `npm run build` first (npm test does)");
    }
    work = await mkdtemp(join(tmpdir(), "mdps-notebooks-"));
    jupyterPath = await installTslabKernel(jupyter.python, join(work, "kernel"));
    if (connected) {
      const dataDir = join(work, "regional-service");
      const admin = openAdmin(dataDir);
      try {
        const { model_id } = admin.createModel("notebooks");
        const app = admin.addApp({ modelId: model_id, name: "notebook test", scopes: [...SCOPES] });
        clientSecret = app.client_secret;
        service = await startService({ dataDir, host: "127.0.0.1", port: 0, region: REGION });
        connected.env = {
          MDPS_BASE_URL: service.url,
          MDPS_REGION: REGION,
          MDPS_CLIENT_ID: app.client_id,
          MDPS_CLIENT_SECRET: app.client_secret,
          MDPS_MODEL_ID: model_id,
        };
      } finally {
        admin.close();
      }
    }
    // Two kernels at a time on two cores; each test awaits its own notebook.
    const queue = [...runsToDo];
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const started = performance.now();
        const run = executeNotebook({
          python: jupyter.python,
          jupyterPath,
          source: next.source,
          dest: join(work, `${next.name}.executed.ipynb`),
          cwd: join(next.source, ".."),
          env: { ...kernelEnv(join(work, `home-${next.name}`)), ...next.env },
          cellTimeoutSeconds: 120,
          totalTimeoutMs: 200_000,
        });
        runs.set(next.name, run);
        const done = await run;
        console.log(`[notebooks] ${next.name}: ${((performance.now() - started) / 1000).toFixed(1)} s, exit ${done.exitCode}`);
      }
    };
    const slots = Array.from({ length: PARALLEL }, worker);
    // Tests await their own notebook; surface a crashed worker through them too.
    void Promise.all(slots);
    await new Promise((r) => setTimeout(r, 0));
  }, 120_000);

  afterAll(async () => {
    await service?.close();
    if (work && !process.env.MDPS_KEEP_NOTEBOOK_RUNS) await rm(work, { recursive: true, force: true });
  });

  async function result(name: string): Promise<ExecutedNotebook> {
    for (let i = 0; i < 3000 && !runs.has(name); i++) await new Promise((r) => setTimeout(r, 100));
    const run = runs.get(name);
    if (!run) throw new Error(`${name} never started`);
    return run;
  }

  it("has expectations for every notebook", () => {
    expect(runsToDo.map((r) => r.name).filter((n) => !(n in EXPECTATIONS))).toEqual([]);
  });

  for (const { name, source } of runsToDo) {
    it(name, async () => {
      const notebook = await result(name);
      expect(problems(notebook), `problems in ${name}`).toEqual([]);
      if (clientSecret) expect(notebook.raw.includes(clientSecret), "the client secret appears in the notebook").toBe(false);
      const texts = cellTexts(notebook);
      const expectation = EXPECTATIONS[name];
      if (!expectation) throw new Error(`no expectations for ${name}: add them to test/notebooks/expectations.ts`);
      expectation({ notebook, texts, all: texts.join("\n"), charts: chartSvgs(notebook) });
      // Only the plain runs are saved: they are what a reader without credentials gets.
      if (save && source.startsWith(NOTEBOOKS) && !name.includes("+")) {
        await copyFile(join(work, `${name}.executed.ipynb`), source);
      }
    }, 300_000);
  }
},
);
