/**
 * Browser tests of the application portal: a real `mdps serve` (the built CLI, as
 * users run it) and Debian's chromium driven by playwright-core. No browser is ever
 * downloaded: without /usr/bin/chromium the tests are skipped locally and fail in CI
 * (CI=true), where .ci/run installs it.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { MAIN, ROOT } from "../cli/built-cli.js";

export const CHROMIUM = process.env.MDPS_CHROMIUM ?? "/usr/bin/chromium";
export const SCREENSHOTS = join(ROOT, "test", "portal", "screenshots");

/** True when the browser tests can run; in CI a missing chromium is a failure, not a skip. */
export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.CI)
    throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium (apt-get install chromium)`);
  return false;
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-background-networking"],
  });
}

export interface PortalServer {
  child: ChildProcessWithoutNullStreams;
  url: string;
  /** The printed one-time login link. */
  loginLink: string;
  stdout: () => string;
  stderr: () => string;
  stop: () => Promise<void>;
}

/** Starts `mdps serve --port 0 ...args` and resolves once it printed both its lines. */
export function startPortalServer(args: string[]): Promise<PortalServer> {
  const child = spawn(process.execPath, [MAIN, "serve", "--port", "0", ...args], { cwd: ROOT });
  let stdout = "";
  let stderr = "";
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`mdps serve printed no portal line in 30 s\n${stdout}\n${stderr}`)),
      30_000,
    );
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      const match = /^listening on (http:\/\/\S+)\nportal: (\S+)\n/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1]!, loginLink: match[2]!, stdout: () => stdout, stderr: () => stderr, stop });
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`mdps serve exited before printing its lines\n${stderr}`));
    });
  });
}

/** Saves a full-page screenshot as test/portal/screenshots/<name>.png (ignored by git). */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** POST /api/authorization/exchange; the status and body. */
export async function requestToken(
  url: string,
  clientId: string,
  clientSecret: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${url}/api/authorization/exchange`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** GET health with a bearer token; the status. */
export async function healthStatus(url: string, token: string): Promise<number> {
  const response = await fetch(`${url}/api/shared/health`, { headers: { authorization: `Bearer ${token}` } });
  await response.arrayBuffer();
  return response.status;
}
