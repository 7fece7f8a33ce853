/**
 * An install that compiles nothing on a Node with SQLite built in (22.13 and later): the
 * packed tarball goes into an empty project with `npm install` run on Node 22 and 24
 * (MDPS_TEST_NODES, which .ci/run fetches), with every compiler on PATH replaced by a
 * stand-in that records its call and fails. Nothing may call one, better-sqlite3 (an
 * optional peer of mdps) is not installed, and Session.local() then runs a job on that
 * Node through node:sqlite. Needs the npm registry, so it runs where the install test runs.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO } from "../notebooks/jupyter.js";
import { NEWER_NODES } from "../service/sqlite-drivers.js";
import { describeWithTool } from "../required-tool.js";
import { installTestEnabled } from "./enabled.js";
import { MINUTE, npmEnv, run } from "./npm-project.js";

const COMPILERS = ["cc", "gcc", "g++", "c++", "clang", "clang++", "make", "python", "python3"];

const newerNodes = {
  name: "Node 22.13+ binaries",
  missing:
    NEWER_NODES.length > 0
      ? null
      : "set MDPS_TEST_NODES to Node 22.13+ binaries separated by ':' (.ci/run fetches Node 22 and 24)",
};

if (!installTestEnabled) {
  describe("an install that compiles nothing on Node 22.13+", () => {
    it("needs the npm registry and minutes", (context) => {
      context.skip("skipped: set MDPS_INSTALL_TEST=1 to run it (CI does)");
    });
  });
} else {
  describeWithTool(newerNodes, "an install that compiles nothing on Node 22.13+", () => {
    let work = "";
    let tarball = "";
    beforeAll(async () => {
      if (!existsSync(join(REPO, "dist/src/index.js"))) throw new Error("dist/ is missing: run `npm run build` first");
      work = mkdtempSync(join(tmpdir(), "mdps-no-compile-"));
      const packed = await run(process.execPath, [join(REPO, "scripts/pack.mjs"), join(work, "tarball")], {
        cwd: REPO,
        timeoutMs: 3 * MINUTE,
      });
      if (packed.code !== 0) throw new Error(`scripts/pack.mjs failed: ${packed.stderr}`);
      tarball = packed.stdout.trim().split("\n").at(-1)!;
    }, 4 * MINUTE);
    afterAll(() => {
      if (work) rmSync(work, { recursive: true, force: true });
    });

    it.each(NEWER_NODES)(
      "npm install on %s compiles nothing, and Session.local() runs a job",
      async (node) => {
        const version = (await run(node, ["--version"], { cwd: work, timeoutMs: MINUTE })).stdout.trim();
        const project = join(work, `project-${version}`);
        const shims = join(work, `compilers-${version}`);
        const calls = join(shims, "calls.log");
        mkdirSync(project, { recursive: true });
        mkdirSync(shims, { recursive: true });
        for (const name of COMPILERS) {
          writeFileSync(join(shims, name), `#!/bin/sh\necho "${name} $*" >> '${calls}'\nexit 1\n`);
          chmodSync(join(shims, name), 0o755);
        }
        writeFileSync(join(project, "package.json"), `${JSON.stringify({ name: "analysis", type: "module" })}\n`);
        const env = { ...npmEnv(), PATH: `${shims}:${dirname(node)}:${process.env["PATH"] ?? ""}` };
        const install = await run("npm", ["install", tarball, "--loglevel=http"], {
          cwd: project,
          env,
          timeoutMs: 20 * MINUTE,
        });
        expect(install.code, install.stderr.slice(-3000)).toBe(0);
        expect(existsSync(calls) ? readFileSync(calls, "utf8") : "").toBe("");
        expect(install.stdout + install.stderr).not.toMatch(/node-gyp|gyp info/);
        expect(existsSync(join(project, "node_modules/better-sqlite3"))).toBe(false);

        writeFileSync(join(project, "data.csv"), "a,b\n3,2\n1,9\n4,5\n");
        writeFileSync(
          join(project, "job.mjs"),
          `import { Session } from "mdps";
const session = await Session.local({ dataDir: "./mdps-data" });
const job = await session.preprocess("data.csv", { type: "MinMaxScaler" });
const df = await job.dataframe();
console.log(JSON.stringify(df["a"].values));
await session.close();
`,
        );
        const ran = await run(node, ["job.mjs"], { cwd: project, env, timeoutMs: 3 * MINUTE });
        expect(ran.code, ran.stderr).toBe(0);
        // scikit-learn computes X * scale_ + min_: (3 - 1) / 3 comes out as 0.6666666666666667.
        expect(ran.stdout.trim()).toBe(JSON.stringify([3 * (1 / 3) - 1 / 3, 0, 1]));
      },
      25 * MINUTE,
    );
  });
}
