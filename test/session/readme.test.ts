/**
 * The README's ten-line scripts (kept in docs/session.md between markers) run as
 * written, in a child process: against Session.local(), and against a `mdps serve`
 * child process configured only by MDPS_* environment variables.
 */
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { openAdmin } from "../../src/server/index.js";
import { spawnChild } from "../harness/service-starter.js";
import { tempDir } from "./session-fixture.js";

const root = resolve(fileURLToPath(import.meta.url), "../../..");
const tsx = import.meta.resolve("tsx");
const dirs: Array<ReturnType<typeof tempDir>> = [];
afterAll(() => dirs.forEach((d) => d.remove()));

/** The code block that follows `<!-- readme:NAME -->` in docs/session.md. */
function example(name: string): string {
  const doc = readFileSync(join(root, "docs/session.md"), "utf8");
  const match = new RegExp(`<!-- readme:${name} -->\\s*\`\`\`ts\\n([\\s\\S]*?)\`\`\``).exec(doc);
  if (!match) throw new Error(`docs/session.md has no <!-- readme:${name} --> block`);
  return match[1]!;
}

function run(cmd: string, args: string[], options: { cwd: string; env: Record<string, string | undefined> }) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
    const child = spawn(cmd, args, { cwd: options.cwd, env: options.env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

/** Writes the example with `from "mdps"` pointing at this checkout's source, plus data.csv. */
function prepare(name: string): { dir: string; script: string } {
  const dir = tempDir("mdps-readme-");
  dirs.push(dir);
  const code = example(name);
  expect(code.split("\n").filter((l) => l.trim() !== "").length).toBeLessThanOrEqual(12);
  writeFileSync(
    join(dir.path, "example.ts"),
    code.replace(`from "mdps"`, `from ${JSON.stringify(join(root, "src/index.ts"))}`),
  );
  writeFileSync(join(dir.path, "package.json"), JSON.stringify({ type: "module" }));
  writeFileSync(join(dir.path, "data.csv"), "age,income,city\n20,1000,Leeds\n30,2000,York\n40,,Bath\n50,4000,Hull\n");
  return { dir: dir.path, script: join(dir.path, "example.ts") };
}

function checkOutput(stdout: string): void {
  // StandardScaler on age 20..50: (x - 35) / 11.18 -> ±1.3416 and ±0.4472; city passed through.
  expect(stdout).toContain("age");
  expect(stdout).toContain("city");
  expect(stdout).toContain("Leeds");
  expect(stdout).toMatch(/-1\.34164/);
  expect(stdout).toMatch(/0\.44721/);
}

describe("README example", () => {
  it("README.md shows the same script as docs/session.md", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    expect(readme).toContain(example("local"));
  });

  it("runs on Session.local()", async () => {
    const { dir, script } = prepare("local");
    const env = { ...process.env, MDPS_HOME: join(dir, "home") };
    const result = await run(process.execPath, ["--import", tsx, script], { cwd: dir, env });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    checkOutput(result.stdout);
  });

  it("runs against `mdps serve` configured by environment variables", async () => {
    const { dir, script } = prepare("env");
    const dataDir = join(dir, "service");
    // `mdps serve` from the sources, as the README's reader runs it in a checkout.
    const server = await spawnChild({
      main: join(root, "src/cli/main.ts"),
      nodeArgs: ["--import", tsx],
      args: ["--data-dir", dataDir, "--region", "uk1"],
    });
    try {
      const { url } = server;
      const admin = openAdmin(dataDir);
      const { model_id } = admin.createModel("readme");
      const app = admin.addApp({
        modelId: model_id,
        name: "readme",
        scopes: [
          "shared.blob.upload",
          "shared.blob.download",
          "shared.health.read",
          "ml.preprocessing.execute",
          "ml.preprocessing.read",
        ],
      });
      admin.close();
      const env = {
        ...process.env,
        MDPS_HOME: join(dir, "home"),
        XDG_CONFIG_HOME: join(dir, "config"), // no config file: the environment alone
        MDPS_CONFIG: undefined,
        MDPS_BASE_URL: url,
        MDPS_AUTH_URL: url,
        MDPS_APP_URL: url,
        MDPS_REGION: "uk1",
        MDPS_CLIENT_ID: app.client_id,
        MDPS_CLIENT_SECRET: app.client_secret,
        MDPS_MODEL_ID: model_id,
        MDPS_SCOPES:
          "shared.blob.upload shared.blob.download shared.health.read ml.preprocessing.execute ml.preprocessing.read",
      };
      const result = await run(process.execPath, ["--import", tsx, script], { cwd: dir, env });
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      checkOutput(result.stdout);
      expect(result.stdout).not.toContain(app.client_secret);
    } finally {
      await server.kill("SIGTERM");
    }
  });
});
