import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Session } from "../../src/index.js";
import { ensureBuilt, runCli } from "../cli/built-cli.js";
import {
  chromiumAvailable,
  healthStatus,
  launchChromium,
  requestToken,
  screenshot,
  startPortalServer,
  type PortalServer,
} from "./portal-harness.js";
import { jobsAndBlobs } from "./jobs-visit.js";

const available = chromiumAvailable();

let dataDir: string;
let server: PortalServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

const SCOPES = [
  "shared.blob.upload",
  "shared.blob.download",
  "shared.blob.read",
  "shared.health.read",
  "ml.preprocessing.execute",
  "ml.preprocessing.read",
];

/** What the tests learn along the way (they run in order, as one person's visit). */
const state = {
  modelId: "",
  clientId: "",
  secret: "",
  tokenBefore: "",
  jobId: "",
  secrets: [] as string[],
  loginTokens: [] as string[],
};

beforeAll(async () => {
  if (!available) return;
  ensureBuilt();
  dataDir = await mkdtemp(join(tmpdir(), "mdps-portal-"));
  server = await startPortalServer(["--data-dir", dataDir, "--log", "--workers", "1"]);
  state.loginTokens.push(new URL(server.loginLink).searchParams.get("token")!);
  browser = await launchChromium();
  context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    permissions: ["clipboard-read", "clipboard-write"],
  });
  page = await context.newPage();
}, 300_000);

afterAll(async () => {
  if (!available) return;
  await browser.close();
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
});

// Generous timeouts: a browser, a service and its job workers share two cores with the rest of the suite.
describe.skipIf(!available)("the application portal in a real browser", { timeout: 180_000 }, () => {
  it("sends every page to the login page without a session", async () => {
    for (const path of [
      "/",
      "/models",
      "/models/8e9f2b4c-3c1a-4d2e-9f00-000000000001",
      "/models/8e9f2b4c-3c1a-4d2e-9f00-000000000001/applications/new",
      "/secrets/abc",
    ]) {
      const response = await page.goto(`${server.url}${path}`);
      expect(new URL(page.url()).pathname, path).toBe("/login");
      expect(response?.status()).toBe(200);
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Log in to the application portal");
    }
    await screenshot(page, "01-login");
    // A wrong token in the form is refused, with what to do.
    await page.getByLabel("Login token").fill("not-a-token");
    await page.getByRole("button", { name: "Log in" }).click();
    expect(await page.getByText("This token does not open the portal").count()).toBe(1);
    expect(new URL(page.url()).pathname).toBe("/login");
  });

  it("logs in through the printed link: HttpOnly, SameSite=Strict cookie, then the models page; the link works once", async () => {
    const response = await page.goto(server.loginLink);
    expect(response?.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe("/models");
    expect(page.url()).not.toContain("token=");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Models");
    const csp = response?.headers()["content-security-policy"] ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name.startsWith("mdps_portal-"));
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Strict" });
    expect(await page.getByText("No models yet").count()).toBe(1);

    // The same link again, in a browser without the session: refused, with a way to get a new one.
    const other = await browser.newContext();
    const otherPage = await other.newPage();
    const again = await otherPage.goto(server.loginLink);
    expect(again?.status()).toBe(401);
    expect(await otherPage.getByText("That login link does not work any more").count()).toBe(1);
    expect(await otherPage.getByText("mdps admin portal-link").count()).toBeGreaterThan(0);
    // `mdps admin portal-link` prints a fresh link that works.
    const run = await runCli(["admin", "portal-link", "--data-dir", dataDir]);
    expect(run.code, run.stderr).toBe(0);
    const link = /^portal: (\S+)$/m.exec(run.stdout)?.[1] ?? "";
    expect(link.startsWith(`${server.url}/login?token=`)).toBe(true);
    state.loginTokens.push(new URL(link).searchParams.get("token")!);
    await otherPage.goto(link);
    expect(new URL(otherPage.url()).pathname).toBe("/models");
    await other.close();
  });

  it("creates a model and shows its settings: Model ID, region, the three addresses", async () => {
    await page.goto(`${server.url}/models`);
    // An empty name is refused with a message at the field.
    await page.getByRole("button", { name: "Create model" }).click();
    expect(await page.getByText("Enter a name for the model.").count()).toBeGreaterThan(0);
    expect(await page.getByLabel("Model name").getAttribute("aria-invalid")).toBe("true");
    await screenshot(page, "02-models-error");

    await page.getByLabel("Model name").fill("Churn <forecast>");
    await page.getByRole("button", { name: "Create model" }).click();
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Churn <forecast>");
    state.modelId = (await page.locator("#model-id").textContent()) ?? "";
    expect(state.modelId).toMatch(/^[0-9a-f-]{36}$/);
    expect(new URL(page.url()).pathname).toBe(`/models/${state.modelId}`);
    expect(await page.locator("#portal-url").textContent()).toBe(server.url);
    expect(await page.locator("#auth-url").textContent()).toBe(server.url);
    expect(await page.locator("#api-url").textContent()).toBe(server.url);
    expect(await page.getByText("region local").count()).toBeGreaterThan(0);
    // The copy buttons exist for keyboard and screen-reader users, by name.
    expect(await page.getByRole("button", { name: "Copy model ID" }).isVisible()).toBe(true);
    await screenshot(page, "03-model-settings-empty");

    await page.goto(`${server.url}/models`);
    expect(await page.getByRole("link", { name: "Churn <forecast>" }).count()).toBe(1);
    await screenshot(page, "04-models");
  });

  it("adds an application, shows the secret once, and the secret gets a token and runs a job", async () => {
    await page.goto(`${server.url}/models/${state.modelId}`);
    await page.getByRole("link", { name: "Add application" }).click();
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Add application");
    // Every scope is a labelled checkbox with its meaning.
    expect(await page.getByRole("checkbox").count()).toBe(8);
    expect(await page.getByText("Read service health.").count()).toBe(1);
    await page.getByLabel("Application name").fill("churn notebook");
    // No scope: refused, the name kept.
    await page.getByRole("button", { name: "Create application" }).click();
    expect(await page.getByText("Choose at least one scope.").count()).toBeGreaterThan(0);
    expect(await page.getByLabel("Application name").inputValue()).toBe("churn notebook");
    for (const scope of SCOPES) await page.getByLabel(scope, { exact: true }).check();
    await screenshot(page, "05-add-application");

    const secretResponse = page.waitForResponse((r) => r.url().includes("/secrets/"));
    await page.getByRole("button", { name: "Create application" }).click();
    const secretPage = await secretResponse;
    expect(secretPage.headers()["cache-control"]).toBe("no-store");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Application created");
    state.clientId = (await page.locator("#client-id").textContent()) ?? "";
    state.secret = (await page.locator("#client-secret").textContent()) ?? "";
    state.secrets.push(state.secret);
    expect(state.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const env = (await page.locator("#env-vars").textContent()) ?? "";
    for (const name of ["MDPS_BASE_URL", "MDPS_AUTH_URL", "MDPS_CLIENT_ID", "MDPS_CLIENT_SECRET", "MDPS_MODEL_ID"])
      expect(env).toContain(name);
    expect(env).toContain(state.secret);
    expect(await page.locator("#config-profile").textContent()).toContain(state.secret);
    const cell = (await page.locator("#notebook-cell").textContent()) ?? "";
    expect(cell).toContain("Session.connect(");
    expect(cell).not.toContain(state.secret);
    // The copy button puts the secret on the clipboard and says so to screen readers.
    await page.getByRole("button", { name: "Copy client secret" }).click();
    expect(await page.evaluate<string>("navigator.clipboard.readText()")).toBe(state.secret);
    await page.getByRole("status").filter({ hasText: "Copied client secret" }).waitFor();
    await screenshot(page, "06-application-created");

    // The page is shown once: a reload finds nothing, and says what to do.
    const reload = await page.reload();
    expect(reload?.status()).toBe(410);
    expect(reload?.headers()["cache-control"]).toBe("no-store");
    expect(await page.content()).not.toContain(state.secret);
    expect(await page.getByText("regenerate it").count()).toBeGreaterThan(0);
    await screenshot(page, "07-secret-gone");

    // The application is listed with its client ID and scopes.
    await page.goto(`${server.url}/models/${state.modelId}`);
    const row = page.getByRole("row", { name: /churn notebook/ });
    expect(await row.getByText(state.clientId).count()).toBe(1);
    expect(await row.getByText("ml.preprocessing.execute").count()).toBe(1);
    await screenshot(page, "08-model-settings");

    // The secret from the page works: a token, then a StandardScaler job through Session.connect.
    const token = await requestToken(server.url, state.clientId, state.secret);
    expect(token.status).toBe(200);
    state.tokenBefore = token.body.access_token as string;
    const csv = join(dataDir, "input.csv");
    await writeFile(csv, "a,b\n1,10\n2,20\n3,30\n4,40\n");
    const session = await Session.connect({
      baseUrl: server.url,
      clientId: state.clientId,
      clientSecret: state.secret,
      modelId: state.modelId,
      scopes: SCOPES,
      env: {},
      configFile: false,
    });
    try {
      const job = await session.preprocess(csv, { type: "StandardScaler" });
      const record = await job.wait({ timeoutMs: 60_000 });
      expect(record.status).toBe("succeeded");
      state.jobId = job.id;
    } finally {
      await session.close();
    }
  });

  it("shows the model's jobs (a new one appears and ends without a reload), a job, its blobs and health", () =>
    jobsAndBlobs({ page, server, dataDir, scopes: SCOPES, state }));

  it("regenerates the secret exactly once, whatever the refresh, back button or double submit", async () => {
    await page.goto(`${server.url}/models/${state.modelId}`);
    await page.getByRole("link", { name: "Regenerate secret of churn notebook" }).click();
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(
      "Regenerate the secret of churn notebook?",
    );
    expect(await page.getByText("can no longer be used to request new tokens").count()).toBe(1);
    expect(await page.getByText("stay valid until they expire").count()).toBe(1);
    await screenshot(page, "09-regenerate-confirm");
    const regenerateUrl = page.url();
    const regenerateForm = {
      csrf: await page.locator('main input[name="_csrf"]').inputValue(),
      nonce: await page.locator('main input[name="nonce"]').inputValue(),
    };

    await page.getByRole("button", { name: "Yes, replace the secret" }).click();
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Secret regenerated");
    const secret = (await page.locator("#client-secret").textContent()) ?? "";
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(secret).not.toBe(state.secret);
    await screenshot(page, "10-secret-regenerated");

    // Refresh the result: nothing new (and the secret is not shown again).
    expect((await page.reload())?.status()).toBe(410);
    // Back to the confirmation. Its address carries the nonce: the browser shows the page from
    // its history (the form with the used nonce) or asks again (the server then says it was used).
    const back = await page.goBack();
    expect(new URL(page.url()).searchParams.get("form")).toBeTruthy();
    if (back?.status() === 200) {
      const resubmit = page.waitForResponse((r) => r.request().method() === "POST");
      await page.getByRole("button", { name: "Yes, replace the secret" }).click();
      expect((await resubmit).status()).toBe(409);
    } else {
      expect(back?.status()).toBe(409);
    }
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Already regenerated");
    expect(await page.getByText("made no other secret").count()).toBe(1);
    await screenshot(page, "11-already-regenerated");
    // Opening the used confirmation's address again says so, without a button.
    const reopened = await page.goto(regenerateUrl);
    expect(reopened?.status()).toBe(409);
    expect(await page.getByRole("button", { name: "Yes, replace the secret" }).count()).toBe(0);
    // The form as it was, posted again (from a tab still showing it): refused, no new secret.
    const replay = await page.request.post(
      `${server.url}/models/${state.modelId}/applications/${state.clientId}/regenerate`,
      {
        form: { _csrf: regenerateForm.csrf, nonce: regenerateForm.nonce },
        maxRedirects: 0,
      },
    );
    expect(replay.status()).toBe(409);
    expect(await replay.text()).toContain("made no other secret");

    // Exactly one regeneration: the old secret is refused, the new one works, the old token still works.
    expect((await requestToken(server.url, state.clientId, state.secret)).status).toBe(401);
    const fresh = await requestToken(server.url, state.clientId, secret);
    expect(fresh.status).toBe(200);
    expect(await healthStatus(server.url, state.tokenBefore)).toBe(200);
    state.secret = secret;
    state.secrets.push(secret);

    // A double submit (two posts of one confirmation): one secret, and the page shows that one.
    await page.goto(`${server.url}/models/${state.modelId}/applications/${state.clientId}/regenerate`);
    expect(new URL(page.url()).searchParams.get("form")).toBeTruthy();
    // (Browser code as a string: the tests compile without the DOM library.)
    await page.evaluate(`(() => {
      const form = document.querySelector("main form");
      void fetch(form.action, { method: "POST", body: new URLSearchParams(new FormData(form)), redirect: "manual" });
      form.submit();
    })()`);
    await page.waitForURL(/\/secrets\//);
    const shown = (await page.locator("#client-secret").textContent()) ?? "";
    expect((await requestToken(server.url, state.clientId, shown)).status).toBe(200);
    expect((await requestToken(server.url, state.clientId, secret)).status).toBe(401);
    state.secret = shown;
    state.secrets.push(shown);
  });

  it("deletes an application after a confirmation; its tokens are refused", async () => {
    const token = await requestToken(server.url, state.clientId, state.secret);
    const accessToken = token.body.access_token as string;
    expect(await healthStatus(server.url, accessToken)).toBe(200);

    await page.goto(`${server.url}/models/${state.modelId}`);
    await page.getByRole("link", { name: "Delete churn notebook" }).click();
    expect(await page.getByText("Every token issued to it is revoked").count()).toBe(1);
    await screenshot(page, "12-delete-confirm");
    await page.getByRole("button", { name: "Yes, delete churn notebook" }).click();
    expect(new URL(page.url()).pathname).toBe(`/models/${state.modelId}`);
    expect(await page.getByText("Application deleted.").count()).toBe(1);
    expect(await page.getByText("No applications yet").count()).toBe(1);
    await screenshot(page, "13-application-deleted");

    expect(await healthStatus(server.url, accessToken)).toBe(401);
    expect(await healthStatus(server.url, state.tokenBefore)).toBe(401);
    expect((await requestToken(server.url, state.clientId, state.secret)).status).toBe(401);
  });

  it("refuses a form post without the CSRF token, and one from another site's page", async () => {
    await page.goto(`${server.url}/models`);
    const nonce = await page.locator('input[name="nonce"]').inputValue();
    const response = await page.request.post(`${server.url}/models`, {
      form: { name: "forged", nonce },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(403);
    const html = await response.text();
    expect(html).toContain("This form could not be verified");
    expect(html).toContain("Reload the page you came from");
    // Nothing was created.
    await page.goto(`${server.url}/models`);
    expect(await page.getByRole("link", { name: "forged" }).count()).toBe(0);

    // A page of another origin posting a form: the SameSite=Strict cookies stay home, so it lands on login.
    const attacker = await context.newPage();
    await attacker.setContent(
      `<form method="post" action="${server.url}/models"><input name="name" value="forged"><input name="nonce" value="${nonce}"><button>go</button></form>`,
    );
    await attacker.getByRole("button", { name: "go" }).click();
    await attacker.waitForLoadState();
    expect(new URL(attacker.url()).pathname).toBe("/login");
    await attacker.close();
  });

  it("looks right on a phone and in dark mode, and is usable by keyboard", async () => {
    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      colorScheme: "dark",
      isMobile: true,
    });
    const phonePage = await phone.newPage();
    const run = await runCli(["admin", "portal-link", "--data-dir", dataDir]);
    const link = /^portal: (\S+)$/m.exec(run.stdout)?.[1] ?? "";
    state.loginTokens.push(new URL(link).searchParams.get("token")!);
    await phonePage.goto(link);
    await screenshot(phonePage, "14-models-phone-dark");
    await phonePage.goto(`${server.url}/models/${state.modelId}`);
    await screenshot(phonePage, "15-model-settings-phone-dark");
    await phonePage.goto(`${server.url}/models/${state.modelId}/applications/new`);
    await screenshot(phonePage, "16-add-application-phone-dark");
    // No horizontal scrolling of the page itself on a phone.
    const overflow = await phonePage.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth");
    expect(overflow).toBeLessThanOrEqual(1);
    await phone.close();

    // The first Tab reaches the skip link, and it is visible when focused.
    await page.goto(`${server.url}/models`);
    await page.keyboard.press("Tab");
    const focused = await page.evaluate<string | undefined>("document.activeElement?.textContent");
    expect(focused).toBe("Skip to content");
    expect(await page.getByRole("link", { name: "Skip to content" }).isVisible()).toBe(true);
  });

  it("logs out; and never wrote a login token or a secret to the log", async () => {
    await page.goto(`${server.url}/models`);
    await page.getByRole("button", { name: "Log out" }).click();
    expect(new URL(page.url()).pathname).toBe("/login");
    expect(await page.getByText("You are logged out").count()).toBe(1);
    await page.goto(`${server.url}/models`);
    expect(new URL(page.url()).pathname).toBe("/login");

    const log = server.stderr();
    expect(log).toContain("incoming request");
    for (const token of state.loginTokens) expect(log).not.toContain(token);
    for (const secret of state.secrets) expect(log).not.toContain(secret);
    expect(log).not.toContain("token=");
  });
});
