/**
 * The portal redirects only to itself, and two portals on one host keep their own cookies.
 * `next` payloads with tab, CR, LF, backslashes and their encoded forms (which browsers
 * read as `//evil.example`) end on the portal's own origin, over HTTP and in Debian's
 * chromium; two services in one browser stay logged in side by side, and a CSRF-checked
 * form works in both.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAdmin, type RunningService } from "../../src/server/index.js";
import { ServiceStarter } from "../harness/service-starter.js";
import { safeNext } from "../../src/server/portal/session-cookie.js";
import { chromiumAvailable, launchChromium } from "../portal/portal-harness.js";

/** Every service here is closed by its test; cleanup() is the backstop. */
const starter = new ServiceStarter();
afterAll(() => starter.cleanup());

interface Portal {
  service: RunningService;
  dir: string;
  link(): string;
}

async function startPortal(): Promise<Portal> {
  const dir = mkdtempSync(join(tmpdir(), "mdps-portal-hostile-"));
  const service = await starter.start({ dataDir: dir, host: "127.0.0.1", port: 0, jobWorkers: 1 });
  const link = () => {
    const admin = openAdmin(dir);
    try {
      return admin.portalLink(service.url).link!;
    } finally {
      admin.close();
    }
  };
  return { service, dir, link };
}

const portals: Portal[] = [];
beforeAll(async () => {
  portals.push(await startPortal(), await startPortal());
}, 120_000);
afterAll(async () => {
  for (const p of portals) {
    await p.service.close();
    rmSync(p.dir, { recursive: true, force: true });
  }
});

/** Raw query text for `next=` (already percent-encoded where it shows %). */
const PAYLOADS = [
  "/%09/evil.example/",
  "/%0d/evil.example/",
  "/%0a/evil.example/",
  "/%0d%0a/evil.example/",
  "%09//evil.example/",
  "/%5Cevil.example/",
  "%5C%5Cevil.example/",
  "/%5C%5Cevil.example/",
  "/%09%5Cevil.example/",
  "//evil.example/",
  "%2F%2Fevil.example/",
  "/.//evil.example/",
  "/..//evil.example/",
  "/%2e%2e//evil.example/",
  "https://evil.example/",
  "https:evil.example",
  "javascript:alert(1)",
  "%20//evil.example/",
  "/%252F%252Fevil.example/",
  "///evil.example/",
];

function expectOwnOrigin(location: string | null, base: string, payload: string): void {
  expect(location, payload).not.toBeNull();
  expect(location!, payload).toMatch(/^\/(?![/\\])/);
  expect(location!, payload).not.toMatch(/[\t\r\n\\]/);
  expect(new URL(location!, base).origin, payload).toBe(new URL(base).origin);
}

describe("login's next: this portal's own paths only", () => {
  it("with a login link: every payload redirects to the portal's own origin", async () => {
    const portal = portals[0]!;
    for (const payload of PAYLOADS) {
      const res = await fetch(`${portal.link()}&next=${payload}`, { redirect: "manual" });
      expect(res.status, payload).toBe(303);
      expectOwnOrigin(res.headers.get("location"), portal.service.url, payload);
    }
  });

  it("with a live session: every payload redirects to the portal's own origin; a real path is kept", async () => {
    const portal = portals[0]!;
    const login = await fetch(portal.link(), { redirect: "manual" });
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    expect(cookie).toMatch(/^mdps_portal-127\.0\.0\.1-\d+=/);
    for (const payload of PAYLOADS) {
      const res = await fetch(`${portal.service.url}/login?next=${payload}`, {
        redirect: "manual",
        headers: { cookie },
      });
      expect(res.status, payload).toBe(303);
      expectOwnOrigin(res.headers.get("location"), portal.service.url, payload);
    }
    const kept = await fetch(`${portal.service.url}/login?next=${encodeURIComponent("/jobs?model=a#top")}`, {
      redirect: "manual",
      headers: { cookie },
    });
    expect(kept.headers.get("location")).toBe("/jobs?model=a#top");
  });

  it("safeNext reads the value as a browser does", () => {
    expect(safeNext("/\t/evil.example/")).toBe("/models");
    expect(safeNext("/\\evil.example")).toBe("/models");
    expect(safeNext("\\\\evil.example")).toBe("/models");
    expect(safeNext("/\r\n/evil.example")).toBe("/models");
    expect(safeNext("/./\\evil.example")).toBe("/models");
    expect(safeNext("/models/a b")).toBe("/models/a%20b");
    expect(safeNext("/jobs")).toBe("/jobs");
    expect(safeNext(undefined)).toBe("/models");
    expect(safeNext(["/jobs"])).toBe("/models");
  });
});

const available = chromiumAvailable();

describe.skipIf(!available)("in chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await (browser as Browser | undefined)?.close();
  });

  it("a tab-smuggled next lands on the portal itself", async () => {
    const portal = portals[0]!;
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${portal.link()}&next=/%09/evil.example/`);
    expect(new URL(page.url()).origin).toBe(new URL(portal.service.url).origin);
    await context.close();
  }, 60_000);

  it("two portals on one host stay logged in side by side, and CSRF-checked forms work in both", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    for (const portal of portals) {
      await page.goto(portal.link());
      expect(new URL(page.url()).pathname).toBe("/models");
    }
    const names = (await context.cookies()).map((c) => c.name).sort();
    const ports = portals.map((p) => new URL(p.service.url).port);
    expect(names).toEqual(
      ports.flatMap((port) => [`mdps_csrf-127.0.0.1-${port}`, `mdps_portal-127.0.0.1-${port}`]).sort(),
    );
    for (const [i, portal] of portals.entries()) {
      // Still logged in after the other portal's login: the page opens, and its form posts.
      await page.goto(`${portal.service.url}/models`);
      expect(new URL(page.url()).pathname).toBe("/models");
      await page.locator('form[action="/models"] input[name="name"]').fill(`model-${i}`);
      await page.locator('form[action="/models"] button[type="submit"]').click();
      await page.waitForLoadState();
      expect(new URL(page.url()).origin).toBe(new URL(portal.service.url).origin);
      expect(await page.content()).not.toMatch(/Invalid csrf token|Missing csrf secret/i);
      const admin = openAdmin(portal.dir);
      try {
        expect(admin.listModels().map((m) => m.name)).toContain(`model-${i}`);
      } finally {
        admin.close();
      }
    }
    await context.close();
  }, 120_000);
});
