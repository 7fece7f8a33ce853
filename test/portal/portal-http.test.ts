/**
 * The portal over plain HTTP (no browser): the session and CSRF rules, one-time forms
 * under concurrent submissions, escaping, redirects and the log. The browser tests
 * (portal.test.ts) cover the same pages as people use them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAdmin, type RunningService } from "../../src/server/index.js";
import { Session } from "../../src/index.js";
import { SCOPES } from "../../src/core/contract/scopes.js";
import { Harness } from "../service/service-harness.js";

const harness = new Harness();
let service: RunningService;
let dataDir: string;
const logLines: string[] = [];

beforeAll(async () => {
  dataDir = await harness.tempDir("mdps-portal-http-");
  service = await harness.start({
    dataDir,
    logger: true,
    logDestination: { write: (line: string) => logLines.push(line) },
  });
});
afterAll(() => harness.cleanup());

function loginLink(): string {
  const admin = openAdmin(dataDir);
  try {
    return admin.portalLink(service.url).link!;
  } finally {
    admin.close();
  }
}

/** A browser in miniature: keeps cookies, never follows redirects. */
class Client {
  readonly cookies = new Map<string, string>();

  async request(path: string, init: { method?: string; form?: Record<string, string | string[]> } = {}) {
    const headers: Record<string, string> = {};
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    let body: URLSearchParams | undefined;
    if (init.form) {
      body = new URLSearchParams();
      for (const [k, v] of Object.entries(init.form)) for (const item of [v].flat()) body.append(k, item);
      headers["content-type"] = "application/x-www-form-urlencoded";
    }
    const response = await fetch(path.startsWith("http") ? path : `${service.url}${path}`, {
      method: init.method ?? (body ? "POST" : "GET"),
      headers,
      body,
      redirect: "manual",
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const [name, ...value] = pair!.split("=");
      this.cookies.set(name!, value.join("="));
    }
    return { status: response.status, headers: response.headers, text: await response.text() };
  }

  /** The hidden fields of the page's main form. */
  static fields(html: string): { csrf: string; nonce: string } {
    const main = html.slice(html.indexOf("<main"));
    return {
      csrf: /name="_csrf" value="([^"]+)"/.exec(main)?.[1] ?? "",
      nonce: /name="nonce" value="([^"]+)"/.exec(main)?.[1] ?? "",
    };
  }
}

async function loggedIn(): Promise<Client> {
  const client = new Client();
  const response = await client.request(loginLink());
  expect(response.status).toBe(303);
  return client;
}

async function newModel(client: Client, name: string): Promise<string> {
  const page = await client.request("/models");
  const { csrf, nonce } = Client.fields(page.text);
  const created = await client.request("/models", { form: { _csrf: csrf, nonce, name } });
  expect(created.status).toBe(303);
  return /\/models\/([0-9a-f-]{36})/.exec(created.headers.get("location") ?? "")![1]!;
}

/** Opens a one-time form page (following its redirect to `?form=<nonce>`). */
async function openForm(client: Client, path: string) {
  const first = await client.request(path);
  expect(first.status).toBe(303);
  const location = first.headers.get("location")!;
  expect(location).toMatch(/\?form=[\w-]{43}$/);
  const page = await client.request(location);
  expect(page.status).toBe(200);
  return { location, ...Client.fields(page.text) };
}

describe("the portal over HTTP", () => {
  it("sends every page and every post to the login page without a session", async () => {
    const anonymous = new Client();
    for (const path of ["/", "/models", "/models/8e9f2b4c-3c1a-4d2e-9f00-000000000001/jobs"]) {
      const response = await anonymous.request(path);
      expect(response.status, path).toBe(303);
      expect(response.headers.get("location")).toMatch(/^\/login\?next=/);
    }
    const post = await anonymous.request("/models", { form: { name: "x", nonce: "n".repeat(43) } });
    expect(post.status).toBe(303);
    expect(post.headers.get("location")).toMatch(/^\/login/);
    const login = await anonymous.request("/login");
    expect(login.status).toBe(200);
    expect(login.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(login.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("trades a login link for a HttpOnly SameSite=Strict cookie once, and never redirects off the portal", async () => {
    const link = loginLink();
    const client = new Client();
    const evil = await client.request(`${link}&next=${encodeURIComponent("//evil.example/")}`);
    expect(evil.status).toBe(303);
    expect(evil.headers.get("location")).toBe("/models");
    const cookie = evil.headers.getSetCookie().find((c) => c.startsWith("mdps_portal-"));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const again = await new Client().request(link);
    expect(again.status).toBe(401);
    expect(again.text).toContain("mdps admin portal-link");
  });

  it("refuses a post without the CSRF token or with another one", async () => {
    const client = await loggedIn();
    const page = await client.request("/models");
    const { nonce } = Client.fields(page.text);
    const forms: Array<Record<string, string>> = [
      { nonce, name: "forged" },
      { nonce, name: "forged", _csrf: "not-the-token" },
    ];
    for (const form of forms) {
      const response = await client.request("/models", { form });
      expect(response.status).toBe(403);
      expect(response.headers.get("content-type")).toMatch(/^text\/html/);
      expect(response.text).toContain("Reload the page you came from");
    }
    expect((await client.request("/models")).text).not.toContain("forged");
  });

  it("escapes what people type, and validates forms with the contract's scopes", async () => {
    const client = await loggedIn();
    const modelId = await newModel(client, `<script>alert("x")</script>`);
    const settings = await client.request(`/models/${modelId}`);
    expect(settings.text).not.toContain(`<script>alert`);
    expect(settings.text).toContain("&lt;script&gt;alert");
    const form = await openForm(client, `/models/${modelId}/applications/new`);
    const bad = await client.request(`/models/${modelId}/applications`, {
      form: { _csrf: form.csrf, nonce: form.nonce, name: "nb", scopes: ["shared.blob.read", "admin.everything"] },
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("is not a scope of this service");
    // The form's nonce is still good after a failed validation.
    const good = await client.request(`/models/${modelId}/applications`, {
      form: { _csrf: form.csrf, nonce: form.nonce, name: "nb", scopes: "shared.health.read" },
    });
    expect(good.status).toBe(303);
    expect(good.headers.get("location")).toMatch(/^\/secrets\//);
  });

  /** A new model with one application holding every scope, and a Session on it. */
  async function sessionOnNewModel(model: string, appName: string) {
    const admin = openAdmin(dataDir);
    let app: { model_id: string; client_id: string; client_secret: string };
    try {
      const { model_id } = admin.createModel(model);
      app = { model_id, ...admin.addApp({ modelId: model_id, name: appName, scopes: [...SCOPES] }) };
    } finally {
      admin.close();
    }
    const session = await Session.connect({
      baseUrl: service.url,
      clientId: app.client_id,
      clientSecret: app.client_secret,
      modelId: app.model_id,
      env: {},
      configFile: false,
    });
    return { app, session };
  }

  it("lists jobs by input name (escaped), feature columns (counted past four) and output; a deleted input by its short id", async () => {
    const { app, session } = await sessionOnNewModel("job list", "lister");
    const hostile = `<img src=x onerror=alert(1)>.csv`;
    const wide = ["c1", "c2", "c3", "c4", "c5", "c6"];
    let gone = "";
    try {
      const text = `${wide.join(",")}\n1,2,3,4,5,6\n2,3,4,5,6,8\n`;
      const named = await session.upload(new TextEncoder().encode(text), { name: hostile, recordType: "csv" });
      await (await session.preprocess(named, { type: "StandardScaler", columns: wide })).wait({ timeoutMs: 60_000 });
      const temporary = await session.upload(new TextEncoder().encode("a\n1\n2\n"), {
        name: "gone.csv",
        recordType: "csv",
      });
      gone = temporary.id;
      await (await session.preprocess(temporary, { type: "MinMaxScaler", columns: ["a"] })).wait({ timeoutMs: 60_000 });
      await temporary.delete();
    } finally {
      await session.close();
    }
    const client = await loggedIn();
    const rows = await client.request(`/models/${app.model_id}/jobs/rows`);
    expect(rows.status).toBe(200);
    const row = (type: string) => rows.text.split("</tr>").find((r) => r.includes(`data-label="${type} job"`)) ?? "";
    const standard = row("StandardScaler");
    expect(standard).not.toContain("<img src=x");
    expect(standard).toContain("&lt;img src=x onerror=alert(1)&gt;.csv</a>");
    expect(standard).toContain(`title="${wide.join(", ")}">c1, c2, c3<span class="muted"> +3 more</span>`);
    expect(standard).toContain("&lt;img src=x onerror=alert(1)&gt;-StandardScaler");
    const minMax = row("MinMaxScaler");
    expect(minMax).toContain(`<code class="nowrap">${gone.slice(0, 8)}</code> <span class="muted">deleted</span>`);
    expect(minMax).not.toContain(`/blobs/${gone}`);
    expect(minMax).toContain(">a</span>");
    expect(minMax).toContain("gone-MinMaxScaler");
  });

  it("saves every download under its record type's extension, from the job page and the blob page", async () => {
    const { app, session } = await sessionOnNewModel("downloads", "saver");
    let jobId = "";
    const named = new Map<string, string>();
    try {
      const input = await session.upload(new TextEncoder().encode("a,b\n1,2\n3,5\n"), {
        name: "scores.tsv",
        recordType: "csv",
      });
      const job = await session.preprocess(input, {
        type: "StandardScaler",
        columns: ["a", "b"],
        outputs: [{ recordType: "arrow" }, { recordType: "parquet" }, { recordType: "json" }, { name: "kept.csv" }],
      });
      await job.wait({ timeoutMs: 60_000 });
      jobId = job.id;
      named.set(input.id, "scores.tsv");
    } finally {
      await session.close();
    }
    const client = await loggedIn();
    const page = await client.request(`/models/${app.model_id}/jobs/${jobId}`);
    expect(page.status).toBe(200);
    const links = [...page.text.matchAll(/href="([^"]+\/blobs\/([^"/]+)\/download)" download="([^"]+)"/g)];
    expect(links.map((l) => l[3])).toEqual([
      "scores.tsv-StandardScaler-1.arrow",
      "scores.tsv-StandardScaler-2.parquet",
      "scores.tsv-StandardScaler-3.json",
      "kept.csv",
    ]);
    for (const [, href, blobId, attribute] of links) {
      named.set(blobId!, attribute!);
      const download = await client.request(href!);
      expect(download.status).toBe(200);
      expect(download.headers.get("content-disposition")).toBe(
        `attachment; filename="${attribute}"; filename*=UTF-8''${encodeURIComponent(attribute!)}`,
      );
    }
    // The blob page and its download say the same; a name with a known ending keeps it.
    for (const [blobId, name] of named) {
      const blobPage = await client.request(`/models/${app.model_id}/blobs/${blobId}`);
      expect(blobPage.text).toContain(`download="${name}"`);
      const download = await client.request(`/models/${app.model_id}/blobs/${blobId}/download`);
      expect(download.headers.get("content-disposition")).toContain(`filename="${name}"`);
    }
  });

  it("makes one secret when a confirmation is posted five times at once, and shows it once", async () => {
    const client = await loggedIn();
    const modelId = await newModel(client, "race");
    const add = await openForm(client, `/models/${modelId}/applications/new`);
    const created = await client.request(`/models/${modelId}/applications`, {
      form: { _csrf: add.csrf, nonce: add.nonce, name: "racer", scopes: "shared.health.read" },
    });
    const secretPage = await client.request(created.headers.get("location")!);
    expect(secretPage.headers.get("cache-control")).toBe("no-store");
    const clientId = /id="client-id">([^<]+)</.exec(secretPage.text)![1]!;
    const firstSecret = /id="client-secret"[^>]*>([^<]+)</.exec(secretPage.text)![1]!;
    // Shown once.
    const again = await client.request(created.headers.get("location")!);
    expect(again.status).toBe(410);
    expect(again.text).not.toContain(firstSecret);

    const confirm = await openForm(client, `/models/${modelId}/applications/${clientId}/regenerate`);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        client.request(`/models/${modelId}/applications/${clientId}/regenerate`, {
          form: { _csrf: confirm.csrf, nonce: confirm.nonce },
        }),
      ),
    );
    const locations = new Set(answers.filter((a) => a.status === 303).map((a) => a.headers.get("location")));
    expect(answers.every((a) => a.status === 303 || a.status === 409)).toBe(true);
    expect(locations.size).toBe(1);
    const shown = await client.request([...locations][0]!);
    const secret = /id="client-secret"[^>]*>([^<]+)</.exec(shown.text)![1]!;
    expect(secret).not.toBe(firstSecret);
    const exchange = (s: string) =>
      fetch(`${service.url}/api/authorization/exchange`, {
        method: "POST",
        body: new URLSearchParams({ grant_type: "client_credentials", client_id: clientId, client_secret: s }),
      }).then((r) => r.status);
    expect(await exchange(secret)).toBe(200);
    expect(await exchange(firstSecret)).toBe(401);
    // The confirmation's address now says it was used.
    const reopened = await client.request(confirm.location);
    expect(reopened.status).toBe(409);
    expect(reopened.text).toContain("Already regenerated");
    expect(reopened.text).not.toContain('name="nonce"');
  });

  it("answers unknown portal addresses with a page, and the API's with problem+json", async () => {
    const client = await loggedIn();
    const page = await client.request("/no/such/page");
    expect(page.status).toBe(404);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.text).toContain("Page not found");
    const api = await client.request("/api/no/such/endpoint");
    expect(api.status).toBe(404);
    expect(api.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    const model = await client.request("/models/not-a-uuid");
    expect(model.status).toBe(404);
    expect(model.text).toContain("No such model");
  });

  it("never logs a login token, a session or a secret", () => {
    const log = logLines.join("");
    expect(log).toContain('"url":"/login"');
    expect(log).not.toMatch(/token=/);
    expect(log).not.toMatch(/mdps_portal-[^=]*=/);
    expect(log).toContain("/secrets/***");
  });
});
