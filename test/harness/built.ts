/**
 * The built `mdps` (dist/bundle/main.js, the package's bin) that child-process tests run, as users do.
 * `npm test` builds before vitest; run alone (`npx vitest run test/cli`), the first test
 * file builds dist when it is missing or older than src/ (one build at a time).
 *
 * MDPS_HARDENING_MAIN=<path to another build's dist/bundle/main.js> makes `hardeningMain()`
 * that build (how the hardening defect tests were seen failing before their fixes).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
export const MAIN = join(ROOT, "dist", "bundle", "main.js");

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

export function ensureBuilt(): void {
  const lock = join(tmpdir(), `mdps-build-${Buffer.from(ROOT).toString("hex").slice(-16)}.lock`);
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`waited 3 minutes for the build lock ${lock}`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    if (!existsSync(MAIN) || statSync(MAIN).mtimeMs < newestSource(join(ROOT, "src"))) {
      try {
        // The steps of `npm run build`.
        execFileSync(
          process.execPath,
          [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-b", "tsconfig.build.json"],
          { cwd: ROOT, stdio: "pipe" },
        );
        execFileSync(process.execPath, [join(ROOT, "scripts", "declarations-for-ts50.mjs"), "dist"], {
          cwd: ROOT,
          stdio: "pipe",
        });
        execFileSync(process.execPath, [join(ROOT, "scripts", "bundle.mjs"), "dist"], { cwd: ROOT, stdio: "pipe" });
        execFileSync(process.execPath, [join(ROOT, "scripts", "notebook-package.mjs")], { cwd: ROOT, stdio: "pipe" });
      } catch (err) {
        // tsc still emits on type errors; those fail `npm run typecheck`, not these tests.
        if (!existsSync(MAIN)) throw err;
        console.warn(`tsc reported errors while building dist:\n${String((err as { stdout?: Buffer }).stdout ?? "")}`);
      }
    }
  } finally {
    rmdirSync(lock);
  }
}

/** The CLI the hardening tests run: MDPS_HARDENING_MAIN's build, else this one's (built first). */
export function hardeningMain(): string {
  const other = process.env["MDPS_HARDENING_MAIN"];
  if (other) return other;
  ensureBuilt();
  return MAIN;
}
