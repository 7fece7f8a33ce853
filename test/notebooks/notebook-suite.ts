/**
 * Executes every notebook in notebooks/ (and the fixtures) headless with real Jupyter and
 * one kernel, the way a user runs them: `import ... from "mdps"` through the package's
 * dist/ (npm test builds it first), with the checks of run-checks.ts. notebooks.test.ts
 * runs it on tslab, deno-notebooks.test.ts on Deno's kernel: the same notebooks (one
 * source, see docs/notebooks.md) and the same expectations, since both kernels show the
 * same HTML. Where the install test runs, the shipped notebooks run there instead, from an
 * analyst's project.
 *
 * Without Jupyter (or Deno) the suite is skipped with an install hint, except in CI (CI
 * set), where that is a failure (../required-tool.ts).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { copyFile, mkdtemp, readdir, rm } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import {
  REPO,
  executeNotebook,
  findJupyterPython,
  installDenoKernel,
  installTslabKernel,
  kernelEnv,
  type ExecutedNotebook,
  type KernelName,
} from "./jupyter.js";
import { EXPECTATIONS } from "./expectations.js";
import { checkNotebookRun } from "./run-checks.js";
import { installTestEnabled } from "../install/enabled.js";
import { describeWithTool, type RequiredTool } from "../required-tool.js";
import { openAdmin, type RunningService } from "../../src/server/index.js";
import { ServiceStarter } from "../harness/service-starter.js";
import { SCOPES } from "../../src/core/contract/index.js";

/** Starts the regional service of a connected suite; its afterAll stops it. */
const starter = new ServiceStarter();

const NOTEBOOKS = join(REPO, "notebooks");
const FIXTURES = join(REPO, "test/notebooks/fixtures");
const PARALLEL = 2;
const REGIONAL = "05-regional-service";
const REGION = "eu-test-1";

/** One execution: a notebook, under a name, with extra kernel environment. */
interface Run {
  name: string;
  source: string;
  env: Record<string, string>;
}

export interface NotebookSuite {
  kernel: KernelName;
  /** Outside programs besides Jupyter (Deno). */
  tools?: RequiredTool[];
  /** Fixture notebooks (in test/notebooks/fixtures) run before the notebooks. */
  fixtures: string[];
  /** Writes the executed notebooks back into notebooks/ (MDPS_SAVE_NOTEBOOKS=1). */
  save: boolean;
}

async function notebookFiles(): Promise<string[]> {
  if (!existsSync(NOTEBOOKS)) return [];
  // Every notebook in the folder: a new one is picked up without being listed here.
  return (await readdir(NOTEBOOKS))
    .filter((f) => f.endsWith(".ipynb"))
    .sort()
    .map((f) => join(NOTEBOOKS, f));
}

export async function notebookSuite(suite: NotebookSuite): Promise<void> {
  const jupyter = findJupyterPython();
  const tools: RequiredTool[] = [
    { name: "Jupyter", missing: "missing" in jupyter ? jupyter.missing : null },
    ...(suite.tools ?? []),
  ];
  const missing = tools.find((t) => t.missing !== null);
  const shipped = await notebookFiles();
  // Where the install test runs, it executes the shipped notebooks from an analyst's
  // project on both kernels with the same checks (./run-checks.ts): running them here too
  // would only repeat that. The fixtures and the connected run stay here.
  const sources = [
    ...suite.fixtures.map((f) => join(FIXTURES, f)),
    ...(installTestEnabled && !suite.save ? [] : shipped),
  ];
  const runsToDo: Run[] = sources.map((source) => ({ name: basename(source, ".ipynb"), source, env: {} }));
  // The regional notebook again, configured by environment for a real service listening
  // on 127.0.0.1 (the reference service in another region): its credentialed cells run.
  const connected: Run | undefined = shipped.some((s) => basename(s, ".ipynb") === REGIONAL)
    ? { name: `${REGIONAL}+connected`, source: join(NOTEBOOKS, `${REGIONAL}.ipynb`), env: {} }
    : undefined;
  if (connected) runsToDo.push(connected);

  describeWithTool(
    missing ?? tools[0]!,
    `notebooks run top to bottom in real Jupyter with the ${suite.kernel} kernel`,
    () => {
      let work = "";
      let service: RunningService | undefined;
      let clientSecret = "";
      const runs = new Map<string, Promise<ExecutedNotebook>>();

      beforeAll(async () => {
        // Only narrows the type: describeWithTool registers this suite only when Jupyter was found.
        if ("missing" in jupyter) throw new Error(jupyter.missing);
        if (!existsSync(join(REPO, "dist/src/index.js"))) {
          throw new Error(
            "dist/src/index.js is missing: the notebooks import the built package; run `npm run build` first (npm test does)",
          );
        }
        work = await mkdtemp(join(tmpdir(), `mdps-notebooks-${suite.kernel}-`));
        const jupyterPath =
          suite.kernel === "deno"
            ? await installDenoKernel(join(work, "kernel"))
            : await installTslabKernel(jupyter.python, join(work, "kernel"));
        if (connected) {
          const dataDir = join(work, "regional-service");
          const admin = openAdmin(dataDir);
          try {
            const { model_id } = admin.createModel("notebooks");
            const app = admin.addApp({ modelId: model_id, name: "notebook test", scopes: [...SCOPES] });
            clientSecret = app.client_secret;
            service = await starter.start({ dataDir, host: "127.0.0.1", port: 0, region: REGION });
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
        const setStarted = performance.now();
        const worker = async () => {
          for (let next = queue.shift(); next; next = queue.shift()) {
            const started = performance.now();
            const run = executeNotebook({
              python: jupyter.python,
              kernel: suite.kernel,
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
            const late = done.lateOutputs.length > 0 ? `, ${done.lateOutputs.length} late output(s)` : "";
            console.log(
              `[notebooks ${suite.kernel}] ${next.name}: ${((performance.now() - started) / 1000).toFixed(1)} s, exit ${done.exitCode}${late}`,
            );
          }
        };
        const slots = Array.from({ length: PARALLEL }, worker);
        // Tests await their own notebook; surface a crashed worker through them too.
        void Promise.all(slots).then(() => {
          const seconds = ((performance.now() - setStarted) / 1000).toFixed(1);
          console.log(`[notebooks ${suite.kernel}] all ${runsToDo.length} runs: ${seconds} s, ${PARALLEL} at a time`);
        });
        await new Promise((r) => setTimeout(r, 0));
      }, 120_000);

      afterAll(async () => {
        await starter.cleanup();
        if (work && !process.env.MDPS_KEEP_NOTEBOOK_RUNS) await rm(work, { recursive: true, force: true });
      });

      async function result(name: string): Promise<ExecutedNotebook> {
        for (let i = 0; i < 3000 && !runs.has(name); i++) await new Promise((r) => setTimeout(r, 100));
        const run = runs.get(name);
        if (!run) throw new Error(`${name} never started`);
        return run;
      }

      it("has expectations for every notebook", () => {
        const names = [...runsToDo.map((r) => r.name), ...shipped.map((s) => basename(s, ".ipynb"))];
        expect(names.filter((n) => !(n in EXPECTATIONS))).toEqual([]);
      });

      for (const { name, source } of runsToDo) {
        it(name, async () => {
          const notebook = await result(name);
          checkNotebookRun({ kernel: suite.kernel, name, notebook, secret: clientSecret });
          // Only the plain runs are saved: they are what a reader without credentials gets.
          if (suite.save && source.startsWith(NOTEBOOKS) && !name.includes("+")) {
            await copyFile(join(work, `${name}.executed.ipynb`), source);
          }
        }, 300_000);
      }
    },
  );
}
