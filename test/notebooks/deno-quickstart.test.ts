/**
 * The README's quickstart as a Deno script (`deno run -A quickstart.ts`) on
 * Session.local(), end to end: the embedded service with its node:sqlite store, an
 * upload, a StandardScaler job, the DataFrame printed. The project is laid out as
 * `npm install mdps` leaves one (package.json, node_modules/mdps), which is how Deno
 * finds the package; here node_modules/mdps links to this checkout, so its dist/ runs.
 * Without Deno: skipped with a hint, or a failure in CI (../required-tool.ts).
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { DENO, REPO, denoMissing, kernelEnv } from "./jupyter.js";
import { describeWithTool } from "../required-tool.js";

/** The README's script, kept in docs/session.md after `<!-- readme:local -->` (test/session/readme.test.ts). */
function quickstart(): string {
  const doc = readFileSync(join(REPO, "docs/session.md"), "utf8");
  const match = /<!-- readme:local -->\s*```ts\n([\s\S]*?)```/.exec(doc);
  if (!match) throw new Error("docs/session.md has no <!-- readme:local --> block");
  return match[1]!;
}

// danfo's dependencies load punycode (tr46, tough-cookie); Deno, like Node 21 and later, warns about it once.
const PUNYCODE_WARNING = /^\(node:\d+\) \[DEP0040\] DeprecationWarning: The `punycode` module is deprecated\..*\n?/m;

describeWithTool({ name: "Deno", missing: denoMissing() }, "the README quickstart as a Deno script", () => {
  let dir = "";
  let outcome: { code: number; stdout: string; stderr: string };

  beforeAll(async () => {
    if (!existsSync(join(REPO, "dist/src/index.js"))) throw new Error("dist/ is missing: run `npm run build` first");
    dir = await mkdtemp(join(tmpdir(), "mdps-deno-quickstart-"));
    await mkdir(join(dir, "node_modules"));
    await symlink(REPO, join(dir, "node_modules/mdps"), "dir");
    await writeFile(join(dir, "package.json"), JSON.stringify({ type: "module", dependencies: { mdps: "*" } }));
    await writeFile(join(dir, "quickstart.ts"), quickstart());
    await writeFile(join(dir, "data.csv"), "age,income,city\n20,1000,Leeds\n30,2000,York\n40,,Bath\n50,4000,Hull\n");
    outcome = await new Promise((done) => {
      execFile(
        DENO,
        ["run", "-A", "quickstart.ts"],
        { cwd: dir, env: kernelEnv(join(dir, "home")), timeout: 120_000, killSignal: "SIGKILL" },
        (error, stdout, stderr) => {
          done({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr });
        },
      );
    });
  }, 150_000);

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("runs on Session.local() and prints the scaled DataFrame", () => {
    expect(outcome.stderr.replace(PUNYCODE_WARNING, "")).toBe("");
    expect(outcome.code).toBe(0);
    // StandardScaler on age 20..50: (x - 35) / 11.18 -> ±1.3416 and ±0.4472; city passed through.
    expect(outcome.stdout).toContain("Leeds");
    expect(outcome.stdout).toMatch(/-1\.34164/);
    expect(outcome.stdout).toMatch(/0\.44721/);
  });

  it("kept its data in the Session's home, not in the project", () => {
    expect(existsSync(join(dir, "home/.mdps/local"))).toBe(true);
    expect(existsSync(join(dir, ".mdps"))).toBe(false);
  });
});
