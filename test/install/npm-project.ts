/**
 * The install test's tools: child processes with a deadline, npm as a user runs it, and
 * the README blocks the test follows as written.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "../notebooks/jupyter.js";

export const MINUTE = 60_000;

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

export function run(
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
export function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith("VITEST") && !key.startsWith("npm_") && key !== "NODE_OPTIONS") env[key] = value;
  }
  return { ...env, npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false" };
}

export const npm = (args: string[], cwd: string, timeoutMs: number) =>
  run("npm", [...args, "--loglevel=http"], { cwd, env: npmEnv(), timeoutMs });

/** Hosts of every URL npm's http log shows it fetching. */
export function fetchedHosts(log: string): Set<string> {
  const hosts = new Set<string>();
  for (const match of log.matchAll(/http fetch \w+(?: \d+)? (https?:\/\/[^\s]+)/g)) hosts.add(new URL(match[1]!).host);
  return hosts;
}

/** npm's warnings, less the http lines that --loglevel=http adds. */
export const warnings = (log: string) => log.split("\n").filter((line) => /^npm (warn|WARN|error|ERR)/.test(line));

const readme = () => readFileSync(join(REPO, "README.md"), "utf8");

/** README's quickstart: the first TypeScript block that calls Session.local(). */
export function readmeQuickstart(): string {
  const block = [...readme().matchAll(/```ts\n([\s\S]*?)```/g)]
    .map((m) => m[1]!)
    .find((code) => code.includes("Session.local()"));
  if (!block) throw new Error("README has no ```ts block calling Session.local()");
  return block;
}

/** README's strict tsconfig for a script project: the ```json block with "skipLibCheck". */
export function readmeTsconfig(): string {
  const block = [...readme().matchAll(/```json\n([\s\S]*?)```/g)]
    .map((m) => m[1]!)
    .find((json) => json.includes('"skipLibCheck"'));
  if (!block) throw new Error('README has no ```json tsconfig with "skipLibCheck"');
  return block;
}

/** README's ```sh block that contains `marker`, as a script. */
export function readmeShell(marker: string): string {
  const block = [...readme().matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!).find((sh) => sh.includes(marker));
  if (!block) throw new Error(`README has no \`\`\`sh block with ${JSON.stringify(marker)}`);
  return block;
}
