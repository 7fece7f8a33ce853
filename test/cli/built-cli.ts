/**
 * The CLI tests run the compiled `mdps` (dist/src/cli/main.js), as users do. `npm test`
 * builds before vitest; run alone (`npx vitest run test/cli`), the first test file
 * builds dist when it is missing or older than src/ (one build at a time).
 */
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
export const MAIN = join(ROOT, "dist", "src", "cli", "main.js");

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
        // The same two steps as `npm run build`.
        execFileSync(
          process.execPath,
          [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-b", "tsconfig.build.json"],
          { cwd: ROOT, stdio: "pipe" },
        );
        execFileSync(process.execPath, [join(ROOT, "scripts", "declarations-for-ts50.mjs"), "dist"], {
          cwd: ROOT,
          stdio: "pipe",
        });
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

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs `mdps ...args` to completion. */
export function runCli(args: string[], timeoutMs = 60_000): Promise<CliRun> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], { cwd: ROOT, env: { ...process.env, MDPS_DATA_DIR: "" } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`mdps ${args.join(" ")} did not finish in ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, stdout, stderr });
    });
  });
}

export interface ServeProcess {
  child: ChildProcessWithoutNullStreams;
  url: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `mdps serve ...args` and resolves with its URL once it printed the listening line. */
export function startServe(args: string[]): Promise<ServeProcess> {
  const child = spawn(process.execPath, [MAIN, "serve", "--port", "0", ...args], { cwd: ROOT });
  let stdout = "";
  let stderr = "";
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.on("exit", (code, signal) => r({ code, signal })),
  );
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`mdps serve printed nothing in 30 s\n${stderr}`)), 30_000);
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      const match = /^listening on (http:\/\/\S+)\n/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolvePromise({ child, url: match[1]!, stdout: () => stdout, stderr: () => stderr, exited });
      }
    });
    void exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`mdps serve exited with ${code} before listening\n${stderr}`));
    });
  });
}
