/**
 * `npm run build` while processes run from dist/bundle (a notebook kernel, a service whose
 * job worker loads its entry at the first job, CI's newer Nodes beside `npm test`): a
 * rebuild of unchanged code replaces nothing, the entries never go missing, and a change
 * replaces only the files it changed (scripts/bundle.mjs, on a copy of tsc's output).
 */
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ROOT, ensureBuilt } from "../harness/built.js";

const run = promisify(execFile);
// Inside the checkout: esbuild resolves the bundled packages from node_modules above it.
let dist = "";
const bundle = () => join(dist, "bundle");

beforeAll(() => {
  ensureBuilt();
  dist = mkdtempSync(join(ROOT, ".bundle-test-"));
  for (const part of ["src", "repl"]) cpSync(join(ROOT, "dist", part), join(dist, part), { recursive: true });
});
afterAll(() => {
  if (dist) rmSync(dist, { recursive: true, force: true });
});

/** Each file of the bundle with its inode: a file replaced gets a new one. */
function files(): Map<string, number> {
  return new Map(readdirSync(bundle()).map((name) => [name, statSync(join(bundle(), name)).ino]));
}

/** Runs the bundle step, checking every few milliseconds that the package's entry is there. */
async function rebuild(): Promise<{ missingSeen: number }> {
  let missingSeen = 0;
  const watch = setInterval(() => {
    if (!existsSync(join(bundle(), "index.js")) || !existsSync(join(bundle(), "job-worker.js"))) missingSeen++;
  }, 2);
  try {
    await run(process.execPath, [join(ROOT, "scripts", "bundle.mjs"), dist], { cwd: ROOT });
  } finally {
    clearInterval(watch);
  }
  return { missingSeen };
}

it("a rebuild of unchanged code replaces no file, and the entries are there throughout", async () => {
  await rebuild();
  const before = files();
  expect(before.has("index.js")).toBe(true);
  expect((await rebuild()).missingSeen).toBe(0);
  expect(files()).toEqual(before);
  expect(readdirSync(dist).filter((name) => name.startsWith("bundle."))).toEqual([]);
}, 120_000);

it("a change replaces what it changed and removes what the new build no longer has; no entry goes missing", async () => {
  await rebuild();
  const before = files();
  const module = join(dist, "src", "display", "notebook", "sigint-relay.js");
  writeFileSync(module, readFileSync(module, "utf8").replace("const SETTLE_MS = 30;", "const SETTLE_MS = 31;"));
  expect((await rebuild()).missingSeen).toBe(0);
  const after = files();
  const holding = (text: string) =>
    [...after.keys()].filter((name) => readFileSync(join(bundle(), name), "utf8").includes(text));
  expect(holding("SETTLE_MS = 31")).toHaveLength(1);
  expect(holding("SETTLE_MS = 30")).toEqual([]);
  expect(after.size).toBe(before.size);
  // A chunk's name is its content's hash: one kept under its name is unchanged and left
  // alone. Only the entries, whose names are fixed, are replaced where they stand.
  const entries = ["index.js", "danfo.js", "service.js", "main.js", "job-worker.js"];
  const replaced = [...after].filter(([name, ino]) => before.has(name) && before.get(name) !== ino).map(([n]) => n);
  for (const name of replaced) expect(entries).toContain(name);
  expect(statSync(join(bundle(), "main.js")).mode & 0o111).not.toBe(0);
}, 120_000);
