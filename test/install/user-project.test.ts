/**
 * mdps as an analyst installs it: the tarball `npm run package` makes goes into an empty
 * project with README's commands ("Use mdps in your own project", run as written). Then,
 * in that folder: README's quickstart against Session.local(), a strict TypeScript check of
 * a file that uses the Session API and mdps/danfo, and every shipped notebook executed by
 * Jupyter on the folder's own tslab and Deno kernels, registered with README's commands,
 * with the checks the repository's notebook suites make (which then leave them to this test).
 *
 * Every URL npm fetches must be on the configured npm registry (checked from npm's http log):
 * nothing from cdn.sheetjs.com, no native TensorFlow download. The rest runs on loopback.
 *
 * It takes minutes and needs the npm registry, so `npm test` runs it only where ./enabled.ts
 * says, and skips it otherwise, saying so. better-sqlite3 is not compiled a second time
 * where the repository's own binary fits (./sqlite-prebuild.ts). It needs dist/ (npm test
 * builds it).
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inCI } from "../required-tool.js";
import {
  REPO,
  executeNotebook,
  findJupyterPython,
  kernelEnv,
  problems,
  type KernelName,
} from "../notebooks/jupyter.js";
import { checkNotebookRun } from "../notebooks/run-checks.js";
import {
  MINUTE,
  fetchedHosts,
  npm,
  npmEnv,
  readmeQuickstart,
  readmeShell,
  readmeTsconfig,
  run,
  warnings,
} from "./npm-project.js";
import { installTestEnabled } from "./enabled.js";
import { seedSqlitePrebuild } from "./sqlite-prebuild.js";
import { hasNodeSqlite } from "./node-sqlite.js";

const NOTEBOOKS = join(REPO, "notebooks");

if (!installTestEnabled) {
  describe("mdps installed into an analyst's own project", () => {
    it("needs the npm registry and several minutes", (context) => {
      context.skip("skipped: set MDPS_INSTALL_TEST=1 to run it (CI does)");
    });
  });
} else {
  describe("mdps installed into an analyst's own project", () => {
    let work = "";
    let project = "";
    let tarball = "";
    let registryHost = "";

    beforeAll(async () => {
      if (!existsSync(join(REPO, "dist/src/index.js")))
        throw new Error("dist/ is missing: run `npm run build` first (npm test does)");
      work = mkdtempSync(join(tmpdir(), "mdps-user-project-"));
      const packed = await run(process.execPath, [join(REPO, "scripts/pack.mjs"), join(work, "tarball")], {
        cwd: REPO,
        timeoutMs: 3 * MINUTE,
      });
      if (packed.code !== 0) throw new Error(`scripts/pack.mjs failed: ${packed.stderr}`);
      tarball = packed.stdout.trim().split("\n").at(-1)!;
      const registry = await npm(["config", "get", "registry"], work, MINUTE);
      registryHost = new URL(registry.stdout.trim()).host;
      project = join(work, "analysis");
      mkdirSync(project);
      console.log(`[install] ${seedSqlitePrebuild(work)}`);
    }, 5 * MINUTE);

    afterAll(() => {
      if (work && !process.env["MDPS_KEEP_INSTALL_TEST"]) rmSync(work, { recursive: true, force: true });
    });

    it("holds danfo's own files and nothing else bundled", async () => {
      const listed = await run("tar", ["tzf", tarball], { cwd: work, timeoutMs: MINUTE });
      const bundled = new Set(
        listed.stdout
          .split("\n")
          .filter((p) => p.startsWith("package/node_modules/"))
          .map((p) => p.split("/")[2]),
      );
      expect([...bundled]).toEqual(["danfojs-node"]);
    });

    it(
      "installs with README's commands from the npm registry alone, without a warning",
      async () => {
        // README's block, with the tarball's path for the one it tells the reader to fill in.
        const script = readmeShell("npm init -y")
          .split("\n")
          .filter((line) => !line.startsWith("MDPS_TGZ="))
          .join("\n");
        const started = performance.now();
        const result = await run("bash", ["-euo", "pipefail", "-c", script], {
          cwd: project,
          env: { ...npmEnv(), MDPS_TGZ: tarball, npm_config_loglevel: "http" },
          timeoutMs: 30 * MINUTE,
        });
        console.log(`[install] README's install block: ${((performance.now() - started) / 1000).toFixed(0)} s`);
        // README's Node 20 line: this Node has no node:sqlite, so the project needs the addon.
        const addon = hasNodeSqlite()
          ? { stdout: "", stderr: "", code: 0 }
          : await run("bash", ["-euo", "pipefail", "-c", readmeShell("npm install better-sqlite3")], {
              cwd: project,
              env: { ...npmEnv(), npm_config_loglevel: "http" },
              timeoutMs: 30 * MINUTE,
            });
        expect(addon.code, addon.stderr).toBe(0);
        const log = result.stdout + result.stderr + addon.stdout + addon.stderr;
        expect(result.code, `README's install block:\n${log.slice(-3000)}`).toBe(0);
        expect(warnings(log)).toEqual([]);
        expect([...fetchedHosts(log)]).toEqual([registryHost]);

        const listed = await npm(["ls", "--all"], project, 2 * MINUTE);
        expect(listed.code, listed.stdout + listed.stderr).toBe(0);
        // danfo's TensorFlow is the pure-JavaScript build; xlsx came from the registry.
        const installed = (path: string) =>
          JSON.parse(readFileSync(join(project, "node_modules", path, "package.json"), "utf8")) as {
            name: string;
            version: string;
          };
        expect(installed("@tensorflow/tfjs-node")).toMatchObject({ name: "@tensorflow/tfjs", version: "3.21.0" });
        expect(installed("xlsx").version).toBe("0.18.5");
        expect(installed("mdps/node_modules/danfojs-node").version).toBe("1.2.0");
        if (!hasNodeSqlite())
          console.log(`[install] better-sqlite3 ${installed("better-sqlite3").version} in the project`);
        // danfo is not the project's own dependency: it comes through mdps/danfo.
        expect(existsSync(join(project, "node_modules/danfojs-node"))).toBe(false);
      },
      32 * MINUTE,
    );

    it(
      "runs README's quickstart against Session.local()",
      async () => {
        writeFileSync(join(project, "data.csv"), "a,b,label\n3,2,x\n1,9,y\n4,5,z\n");
        writeFileSync(join(project, "quickstart.ts"), readmeQuickstart());
        const result = await run(join(project, "node_modules/.bin/tsx"), ["quickstart.ts"], {
          cwd: project,
          env: kernelEnv(join(work, "home-quickstart")),
          timeoutMs: 3 * MINUTE,
        });
        expect(result.code, result.stderr).toBe(0);
        expect(result.stderr).toBe("");
        // StandardScaler of a = [3, 1, 4]: (1 - 8/3) / sd for the second row, printed by danfo's print().
        expect(result.stdout).toContain("-1.33630620956");
        expect(result.stdout).toContain("label");
      },
      5 * MINUTE,
    );

    it(
      "runs the scaling lesson shipped in the package, from the project's folder",
      async () => {
        const lesson = await run(join(project, "node_modules/.bin/mdps"), ["repl", "--lesson", "scaling"], {
          cwd: project,
          env: { ...kernelEnv(join(work, "home-lesson")), CI: "1", MDPS_BASE_URL: "", MDPS_PROFILE: "" },
          timeoutMs: 3 * MINUTE,
        });
        expect(lesson.stderr).toBe("");
        expect(lesson.code).toBe(0);
        expect(lesson.stdout).toMatch(/into frame cancer: 569 rows × 31 columns/);
        expect(lesson.stdout).toMatch(/j4 +PowerTransformer \(method=box-cox\) on cancer/);
      },
      5 * MINUTE,
    );

    it(
      "type-checks a strict TypeScript file that uses the Session API and mdps/danfo",
      async () => {
        writeFileSync(join(project, "tsconfig.json"), readmeTsconfig());
        writeFileSync(
          join(project, "analysis.ts"),
          `import { Session } from "mdps";
import { describe, dfd, readCsv, readFile, type DataFrame } from "mdps/danfo";

export async function scale(path: string): Promise<DataFrame> {
  const session = await Session.local();
  try {
    const raw: dfd.DataFrame = await readCsv(path, { naValues: ["-999"] });
    const job = await session.preprocess(raw, { type: "MinMaxScaler", params: { feature_range: [0, 1] } });
    const scaled = await job.dataframe();
    const transformer = await job.transformer();
    describe(scaled).print();
    return transformer.transform(await readFile(path));
  } finally {
    await session.close();
  }
}

export const table = (): DataFrame => new dfd.DataFrame({ x: [1, 2] });
`,
        );
        // The project's own TypeScript (the registry's latest), and 5.9 (the repository's).
        const own = await run(join(project, "node_modules/.bin/tsc"), ["-p", "."], {
          cwd: project,
          timeoutMs: 3 * MINUTE,
        });
        expect(own.stdout + own.stderr).toBe("");
        expect(own.code).toBe(0);
        const ts59 = await run(process.execPath, [join(REPO, "node_modules/typescript/bin/tsc"), "-p", "."], {
          cwd: project,
          timeoutMs: 3 * MINUTE,
        });
        expect(ts59.stdout + ts59.stderr).toBe("");
        expect(ts59.code).toBe(0);
      },
      5 * MINUTE,
    );

    it(
      "executes every shipped notebook from that folder on its tslab and Deno kernels",
      async (context) => {
        const jupyter = findJupyterPython();
        if ("missing" in jupyter) {
          if (inCI) throw new Error(`Jupyter is required when CI is set: ${jupyter.missing}`);
          context.skip(jupyter.missing);
          return;
        }
        cpSync(join(NOTEBOOKS, "data"), join(project, "data"), { recursive: true });
        const notebooks = readdirSync(NOTEBOOKS).filter((f) => f.endsWith(".ipynb"));
        for (const file of notebooks) cpSync(join(NOTEBOOKS, file), join(project, file));
        // README's kernel registration, with a private home: --user writes under it, nothing system-wide.
        const home = join(work, "home-kernels");
        const registered = await run("bash", ["-euo", "pipefail", "-c", kernelCommands()], {
          cwd: project,
          env: { ...kernelEnv(home), PATH: `${join(project, "node_modules/.bin")}:${process.env["PATH"] ?? ""}` },
          timeoutMs: 3 * MINUTE,
        });
        expect(registered.code, registered.stderr + registered.stdout).toBe(0);
        const jupyterPath = join(home, ".local/share/jupyter");
        for (const kernel of ["tslab", "deno"]) expect(existsSync(join(jupyterPath, `kernels/${kernel}`))).toBe(true);

        const runs = notebooks.flatMap((file) =>
          (["tslab", "deno"] as KernelName[]).map((kernel) => ({ file, kernel })),
        );
        const failures: string[] = [];
        // Two kernels at a time on two cores.
        const worker = async () => {
          for (let next = runs.shift(); next; next = runs.shift()) {
            const name = basename(next.file, ".ipynb");
            const started = performance.now();
            const notebook = await executeNotebook({
              python: jupyter.python,
              kernel: next.kernel,
              jupyterPath,
              source: join(project, next.file),
              dest: join(work, `${name}.${next.kernel}.ipynb`),
              cwd: project,
              env: kernelEnv(join(work, `home-${name}-${next.kernel}`)),
              cellTimeoutSeconds: 180,
              totalTimeoutMs: 8 * MINUTE,
            });
            const seconds = ((performance.now() - started) / 1000).toFixed(0);
            console.log(`[install] ${name} on ${next.kernel}: ${seconds} s`);
            try {
              checkNotebookRun({ kernel: next.kernel, name, notebook });
            } catch (error) {
              // The assertion's diff too: its message alone shows an array as "[ Array(2) ]".
              const { message, diff } = error as Error & { diff?: string };
              failures.push(`${name} on ${next.kernel}: ${message}\n${diff ?? ""}\n${problems(notebook).join("\n")}`);
            }
          }
        };
        await Promise.all([worker(), worker()]);
        expect(failures).toEqual([]);
      },
      30 * MINUTE,
    );
  });
}

/** README's kernel registration (its ```sh block with `tslab install`), less the line that opens Jupyter. */
function kernelCommands(): string {
  return readmeShell("tslab install")
    .split("\n")
    .filter((line) => !line.startsWith("jupyter lab"))
    .join("\n");
}
