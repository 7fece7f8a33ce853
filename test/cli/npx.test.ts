/**
 * `npx mdps` in a clone, as README writes every command: npm runs the package's own `bin`
 * through a link in npx's cache. A fresh npm cache makes npm build that link as on a new
 * machine (a link of the package to itself in node_modules made exactly this fail with
 * "Cannot read properties of null (reading 'parent')"). From notebooks/, whose own
 * node_modules holds mdps as an install does (scripts/notebook-package.mjs, run by the
 * build), npm runs that folder's `.bin/mdps`.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ROOT, ensureBuilt } from "./built-cli.js";
import { packageVersion } from "../../src/server/version.js";

const cache = mkdtempSync(join(tmpdir(), "mdps-npx-cache-"));
beforeAll(() => ensureBuilt(), 180_000);
afterAll(() => rmSync(cache, { recursive: true, force: true }));

function npx(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith("npm_") && !key.startsWith("VITEST") && key !== "NODE_OPTIONS") env[key] = value;
  }
  env.npm_config_cache = cache;
  env.npm_config_update_notifier = "false";
  return new Promise((done) => {
    execFile("npx", args, { cwd, env, timeout: 120_000 }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

it("runs the package's own mdps command from the clone and from a folder in it", async () => {
  for (const cwd of [ROOT, join(ROOT, "notebooks")]) {
    const ran = await npx(["mdps", "--version"], cwd);
    expect(ran.stderr, `npx mdps --version in ${cwd}`).toBe("");
    expect(ran.code).toBe(0);
    expect(ran.stdout.trim()).toBe(packageVersion());
  }
}, 240_000);

it("the notebooks resolve mdps to this build, as an installed package", () => {
  const installed = join(ROOT, "notebooks/node_modules/mdps");
  expect(realpathSync(join(installed, "dist"))).toBe(realpathSync(join(ROOT, "dist")));
  const manifest = (dir: string) =>
    JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Record<string, unknown>;
  for (const field of ["name", "version", "type", "exports", "bin", "types"]) {
    expect(manifest(installed)[field], field).toEqual(manifest(ROOT)[field]);
  }
});

it("no link under notebooks/ leads back to a folder that holds it", () => {
  const notebooks = realpathSync(join(ROOT, "notebooks"));
  const loops: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isSymbolicLink()) {
        const target = realpathSync(path);
        if (notebooks === target || notebooks.startsWith(target + sep)) loops.push(`${path} -> ${target}`);
      } else if (entry.isDirectory()) walk(path);
    }
  };
  walk(notebooks);
  expect(loops).toEqual([]);
});
