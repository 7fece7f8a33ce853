/**
 * A notebook is saved, shared and committed with its outputs, so a portal login link it
 * shows must not open the portal afterwards. A real notebook runs in Jupyter (tslab):
 * it shows session.portalLink() and session.portalUrl() as cell values, prints them as
 * text and JSON, and opens one link while its session runs (the links are real). Then,
 * with the kernel gone, every link and token-like value in the saved .ipynb is tried
 * against a new service on the same data dir: none logs in. A token the operator prints
 * (`mdps admin portal-link`, which survives restarts) does, so the check can fail.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openAdmin } from "../../src/server/index.js";
import { ServiceStarter } from "../harness/service-starter.js";
import { describeWithTool } from "../required-tool.js";
import {
  executeNotebook,
  findJupyterPython,
  installTslabKernel,
  kernelEnv,
  problems,
  REPO,
} from "../notebooks/jupyter.js";

/** Every service here is closed by its test; cleanup() is the backstop. */
const starter = new ServiceStarter();
afterAll(() => starter.cleanup());

const jupyter = findJupyterPython();

const cell = (source: string) => ({ cell_type: "code", metadata: {}, outputs: [], execution_count: null, source });

/** What a user's cells do with the portal; `mdps` resolves through notebooks/node_modules. */
function notebook(dataDir: string): string {
  return JSON.stringify({
    cells: [
      cell(
        `import { Session } from "mdps";\nconst session = await Session.local({ dataDir: ${JSON.stringify(dataDir)} });`,
      ),
      cell("session.portalLink()"),
      cell("session.portalUrl()"),
      cell(
        "console.log(String(session.portalLink()), JSON.stringify({ link: session.portalLink(), url: session.portalUrl() }));",
      ),
      // One link opened while the session runs: the links the notebook shows are real ones.
      cell(
        'const opened = await fetch(session.portalUrl(), { redirect: "manual" });\nconsole.log("opened while running:", opened.status, opened.headers.get("location"));',
      ),
    ],
    metadata: { kernelspec: { display_name: "TypeScript", language: "typescript", name: "tslab" } },
    nbformat: 4,
    nbformat_minor: 5,
  });
}

describeWithTool(
  { name: "Jupyter", missing: "missing" in jupyter ? jupyter.missing : null },
  "a saved notebook holds no usable portal login",
  () => {
    let work = "";
    beforeAll(async () => {
      work = await mkdtemp(join(tmpdir(), "mdps-notebook-portal-"));
    });
    afterAll(() => rm(work, { recursive: true, force: true }));

    it("portalLink() and portalUrl() shown, printed and saved: none opens the portal after the kernel ends", async () => {
      if ("missing" in jupyter) throw new Error(jupyter.missing);
      const dataDir = join(work, "data");
      const source = join(work, "portal.ipynb");
      await writeFile(source, notebook(dataDir));
      const run = await executeNotebook({
        python: jupyter.python,
        jupyterPath: await installTslabKernel(jupyter.python, join(work, "kernel")),
        source,
        dest: join(work, "portal.executed.ipynb"),
        cwd: join(REPO, "notebooks"),
        env: kernelEnv(join(work, "home")),
        cellTimeoutSeconds: 120,
        totalTimeoutMs: 240_000,
      });
      expect(problems(run)).toEqual([]);
      const saved = await readFile(join(work, "portal.executed.ipynb"), "utf8");
      expect(saved).toMatch(/opened while running: 303 \/models/);

      // Every login link's secret in the saved file, and any other 43-character token-like run.
      const secrets = new Set<string>();
      for (const m of saved.matchAll(/login\?(?:link|token)=([\w-]+)/g)) secrets.add(m[1]!);
      for (const m of saved.matchAll(/(?<![\w-])[\w-]{43}(?![\w-])/g)) secrets.add(m[0]);
      // One link per call: the displayed link (HTML and text/plain), the URL as a value, three printed.
      expect(secrets.size).toBeGreaterThanOrEqual(5);

      const service = await starter.start({ dataDir, host: "127.0.0.1", port: 0 });
      try {
        const opens = async (query: string) =>
          (await fetch(`${service.url}/login?${query}`, { redirect: "manual" })).status === 303;
        const usable: string[] = [];
        for (const secret of secrets) {
          if (await opens(`link=${secret}`)) usable.push(`link=${secret.slice(0, 6)}...`);
          if (await opens(`token=${secret}`)) usable.push(`token=${secret.slice(0, 6)}...`);
        }
        expect(usable).toEqual([]);

        // The control: a token that does survive the process opens this service once.
        const admin = openAdmin(dataDir);
        const printed = admin.portalLink(service.url).token;
        admin.close();
        expect(await opens(`token=${printed}`)).toBe(true);
        expect(await opens(`token=${printed}`)).toBe(false);
      } finally {
        await service.close();
      }
    }, 300_000);
  },
);
