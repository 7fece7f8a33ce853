/**
 * mdps as an analyst installs it (issue 23): the tarball `npm run package` makes (the one that
 * would be published) goes into an empty project with a plain package.json, following README's
 * "Use mdps in your own project". Then, in that folder: README's quickstart against
 * Session.local(), a strict TypeScript check of a file that uses the Session API, and the
 * quickstart notebook executed by Jupyter with the folder's own tslab kernel.
 *
 * Every URL npm fetches must be on the configured npm registry (checked from npm's http log):
 * nothing from cdn.sheetjs.com, no native TensorFlow download. The rest runs on loopback.
 *
 * It takes several minutes (better-sqlite3 compiles in the new project) and needs the npm
 * registry, so it runs in CI (CI set) or with MDPS_INSTALL_TEST=1; elsewhere it is skipped
 * with that reason. It needs dist/ (npm test builds it first).
 */
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inCI } from "../required-tool.js";
import { REPO, executeNotebook, findJupyterPython, kernelEnv, problems } from "../notebooks/jupyter.js";

const enabled = inCI || process.env["MDPS_INSTALL_TEST"] === "1";
const MINUTE = 60_000;

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

function run(
  file: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<Ran> {
  return new Promise((done) => {
    execFile(
      file,
      args,
      {
        cwd: options.cwd,
        env: options.env ?? process.env,
        timeout: options.timeoutMs,
        maxBuffer: 256 * 1024 * 1024,
        killSignal: "SIGKILL",
      },
      (error, stdout, stderr) => {
        // A non-zero exit has a numeric code; anything else (a timeout, a spawn error) says why.
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        const why = error && typeof error.code !== "number" ? `\n${error.message}` : "";
        done({ code, stdout, stderr: stderr + why });
      },
    );
  });
}

/** npm as a user runs it: their own config, no update notice, the vitest variables dropped. */
function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith("VITEST") && !key.startsWith("npm_") && key !== "NODE_OPTIONS") env[key] = value;
  }
  return { ...env, npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false" };
}

const npm = (args: string[], cwd: string, timeoutMs: number) =>
  run("npm", [...args, "--loglevel=http"], { cwd, env: npmEnv(), timeoutMs });

/** Hosts of every URL npm's http log shows it fetching. */
function fetchedHosts(log: string): Set<string> {
  const hosts = new Set<string>();
  for (const match of log.matchAll(/http fetch \w+(?: \d+)? (https?:\/\/[^\s]+)/g)) hosts.add(new URL(match[1]!).host);
  return hosts;
}

/** npm's warnings, less the http lines that --loglevel=http adds. */
const warnings = (log: string) => log.split("\n").filter((line) => /^npm (warn|WARN|error|ERR)/.test(line));

/** README's quickstart: the first TypeScript block that calls Session.local(). */
function readmeQuickstart(): string {
  const readme = readFileSync(join(REPO, "README.md"), "utf8");
  const block = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)]
    .map((m) => m[1]!)
    .find((code) => code.includes("Session.local()"));
  if (!block) throw new Error("README has no ```ts block calling Session.local()");
  return block;
}

/** README's strict tsconfig for a script project: the ```json block with "skipLibCheck". */
function readmeTsconfig(): string {
  const readme = readFileSync(join(REPO, "README.md"), "utf8");
  const block = [...readme.matchAll(/```json\n([\s\S]*?)```/g)]
    .map((m) => m[1]!)
    .find((json) => json.includes('"skipLibCheck"'));
  if (!block) throw new Error('README has no ```json tsconfig with "skipLibCheck"');
  return block;
}

if (!enabled) {
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
        // README, "A script project" and "A notebook folder", with the tarball for `mdps`.
        const steps: string[][] = [
          ["init", "-y"],
          ["pkg", "set", "type=module"],
          [
            "pkg",
            "set",
            "allowScripts.better-sqlite3=true",
            "allowScripts.zeromq=true",
            "allowScripts.esbuild=true",
            "allowScripts.core-js=false",
            "--json",
          ],
          ["install", tarball, "tslab"],
          ["install", "--save-dev", "typescript", "@types/node@20", "tsx"],
        ];
        const hosts = new Set<string>();
        for (const step of steps) {
          const started = performance.now();
          const result = await npm(step, project, 15 * MINUTE);
          const log = result.stdout + result.stderr;
          if (step[0] === "install") {
            console.log(`[install] npm ${step.join(" ")}: ${((performance.now() - started) / 1000).toFixed(0)} s`);
          }
          expect(result.code, `npm ${step.join(" ")}:\n${log.slice(-3000)}`).toBe(0);
          expect(warnings(log), `npm ${step.join(" ")}`).toEqual([]);
          for (const host of fetchedHosts(log)) hosts.add(host);
        }
        expect([...hosts]).toEqual([registryHost]);

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
      },
      20 * MINUTE,
    );

    it(
      "runs README's quickstart against Session.local()",
      async () => {
        writeFileSync(join(project, "data.csv"), "a,b,label\n3,2,x\n1,9,y\n4,5,z\n");
        writeFileSync(join(project, "quickstart.ts"), readmeQuickstart());
        const home = join(work, "home-quickstart");
        const result = await run(join(project, "node_modules/.bin/tsx"), ["quickstart.ts"], {
          cwd: project,
          env: kernelEnv(home),
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
      "type-checks a strict TypeScript file that uses the Session API",
      async () => {
        writeFileSync(join(project, "tsconfig.json"), readmeTsconfig());
        writeFileSync(
          join(project, "analysis.ts"),
          `import { Session, type DataFrame } from "mdps";

export async function scale(path: string): Promise<DataFrame> {
  const session = await Session.local();
  try {
    const blob = await session.upload(path, { tags: ["strict"] });
    const job = await session.preprocess(blob, { type: "MinMaxScaler", params: { feature_range: [0, 1] } });
    const scaled = await job.dataframe();
    const transformer = await job.transformer();
    return transformer.transform(scaled);
  } finally {
    await session.close();
  }
}
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
      "executes the quickstart notebook from that folder with its tslab kernel",
      async (context) => {
        const jupyter = findJupyterPython();
        if ("missing" in jupyter) {
          if (inCI) throw new Error(`Jupyter is required when CI is set: ${jupyter.missing}`);
          context.skip(jupyter.missing);
          return;
        }
        mkdirSync(join(project, "data"));
        cpSync(join(REPO, "notebooks/data/customers.csv"), join(project, "data/customers.csv"));
        cpSync(join(REPO, "notebooks/01-quickstart.ipynb"), join(project, "quickstart.ipynb"));
        // README's registration, into a private prefix so nothing outside the temp dir changes.
        const prefix = join(work, "kernel");
        const tslab = join(project, "node_modules/.bin/tslab");
        const installed = await run(
          tslab,
          ["install", `--python=${jupyter.python}`, `--binary=${tslab}`, `--prefix=${prefix}`],
          { cwd: project, timeoutMs: 2 * MINUTE },
        );
        expect(installed.code, installed.stderr).toBe(0);
        const notebook = await executeNotebook({
          python: jupyter.python,
          jupyterPath: join(prefix, "share/jupyter"),
          source: join(project, "quickstart.ipynb"),
          dest: join(work, "quickstart.executed.ipynb"),
          cwd: project,
          env: kernelEnv(join(work, "home-notebook")),
          cellTimeoutSeconds: 180,
          totalTimeoutMs: 8 * MINUTE,
        });
        expect(problems(notebook)).toEqual([]);
        expect(notebook.raw).toContain("succeeded");
      },
      10 * MINUTE,
    );
  });
}
