/**
 * Browser tests of the application portal: a real `mdps serve` (the built CLI, as
 * users run it) and Debian's chromium driven by playwright-core. No browser is ever
 * downloaded: without /usr/bin/chromium the tests are skipped locally and fail in CI
 * (CI=true), where .ci/run installs it.
 */
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { ROOT } from "../harness/built.js";
import { spawnChild, type ServiceChild } from "../harness/service-starter.js";
import { exchange } from "../service/service-harness.js";

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

export interface PortalServer extends ServiceChild {
  /** The printed one-time login link. */
  loginLink: string;
  stop: () => Promise<void>;
}

/** Starts `mdps serve --port 0 ...args` and resolves once it printed both its lines. */
export async function startPortalServer(args: string[]): Promise<PortalServer> {
  const served = await spawnChild({ args, ready: /^listening on (http:\/\/\S+)\nportal: (\S+)\n/, timeoutMs: 30_000 });
  return { ...served, loginLink: served.match[2]!, stop: () => served.kill("SIGTERM") };
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
  const reply = await exchange(url, {
    grant_type: "client_credentials",
    client_id: clientId,
    client_secret: clientSecret,
  });
  return { status: reply.status, body: reply.body as Record<string, unknown> };
}

/** GET health with a bearer token; the status. */
export async function healthStatus(url: string, token: string): Promise<number> {
  const response = await fetch(`${url}/api/shared/health`, { headers: { authorization: `Bearer ${token}` } });
  await response.arrayBuffer();
  return response.status;
}
