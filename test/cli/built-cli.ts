/**
 * The CLI tests run the compiled `mdps` (dist/src/cli/main.js), as users do; the build
 * (`ensureBuilt`) and `mdps serve` children live in test/harness/.
 */
import { spawn } from "node:child_process";
import { MAIN, ROOT } from "../harness/built.js";
import { spawnChild, type ServiceChild } from "../harness/service-starter.js";

export { ensureBuilt, MAIN, ROOT } from "../harness/built.js";

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

export type ServeProcess = ServiceChild;

/** Starts `mdps serve --port 0 ...args` and resolves with its URL once it printed the listening line. */
export function startServe(args: string[]): Promise<ServeProcess> {
  return spawnChild({ args, timeoutMs: 30_000 });
}
