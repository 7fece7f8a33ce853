#!/usr/bin/env node
/**
 * Builds dist/ only when a build input changed since the last successful build: what
 * `npm start` runs first, so starting an installed clone costs no compiler run
 * (`prepare` builds at install time). The stamp records when the last build *started*,
 * so a file saved during a build makes the next start build again.
 *
 *   node scripts/build-if-stale.mjs          # build if stale, quietly
 *   node scripts/build-if-stale.mjs --why    # also say which file made it stale
 *   node scripts/build-if-stale.mjs --install  # `prepare`: a failed build warns, never fails npm install
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const STAMP = join(root, "dist", ".build-stamp");
/** What `npm run build` reads: the compiled folders, the compiler settings, the scripts it runs. */
const INPUT_DIRS = ["src", "repl", "bench"];
const INPUT_FILES = [
  "package.json",
  "tsconfig.base.json",
  "tsconfig.build.json",
  "scripts/declarations-for-ts50.mjs",
  "scripts/bundle.mjs",
];

/** The newest input file: [mtimeMs, path]. */
function newestInput() {
  let newest = [0, ""];
  const consider = (path) => {
    const mtime = statSync(path).mtimeMs;
    if (mtime > newest[0]) newest = [mtime, path];
  };
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) consider(path);
    }
  };
  for (const dir of INPUT_DIRS) if (existsSync(join(root, dir))) walk(join(root, dir));
  for (const file of INPUT_FILES) if (existsSync(join(root, file))) consider(join(root, file));
  return newest;
}

const stampTime = existsSync(STAMP) ? statSync(STAMP).mtimeMs : 0;
const [newestTime, newestPath] = newestInput();
const missing = !existsSync(join(root, "dist", "bundle", "main.js"));
if (!missing && stampTime >= newestTime) process.exit(0);

if (process.argv.includes("--why")) {
  console.error(missing ? "dist/ is missing: building" : `${newestPath} changed since the last build: building`);
}
const started = new Date();
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const build = spawnSync(npm, ["run", "build", "--silent"], { cwd: root, stdio: "inherit" });
if (build.status !== 0) {
  if (!process.argv.includes("--install")) process.exit(build.status ?? 1);
  // An install must not fail on a type error in a work in progress: npm start builds again.
  console.error("mdps: the build failed (see above); npm start will try again.");
  process.exit(0);
}
writeFileSync(STAMP, `${started.toISOString()}\n`);
// The stamp's time is when the build started: files saved during the build are newer.
utimesSync(STAMP, started, started);
