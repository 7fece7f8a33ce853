import { createHash } from "node:crypto";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { blobRecord } from "../../src/core/contract/index.js";
import { openSqlite } from "../../src/server/store/sqlite/sqlite.js";
import { Api, exchange, expectProblem, granted, json, tokenFor } from "../service/service-harness.js";
import { ensureBuilt, runCli, startServe, type ServeProcess } from "./built-cli.js";

const dirs: string[] = [];
const servers: ServeProcess[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "mdps-cli-"));
  dirs.push(dir);
  return dir;
}
async function serve(args: string[]): Promise<ServeProcess> {
  const s = await startServe(args);
  servers.push(s);
  return s;
}

beforeAll(() => ensureBuilt(), 300_000);
afterAll(async () => {
  for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill("SIGKILL");
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

/** What the admin commands print with --json, as far as these tests read it. */
const createdModel = z.looseObject({ model_id: z.string() });
const addedApp = z.looseObject({ client_id: z.string(), client_secret: z.string() });
const regeneratedSecret = z.looseObject({ client_secret: z.string() });

/** Runs mdps, which must succeed, and parses its --json output with `schema`. */
async function cliJson<S extends z.ZodType>(schema: S, args: string[]): Promise<z.output<S>> {
  const run = await runCli(args);
  if (run.code !== 0) throw new Error(`mdps ${args.join(" ")} exited ${run.code}: ${run.stderr}`);
  return schema.parse(JSON.parse(run.stdout));
}

async function createModel(dataDir: string, name: string): Promise<string> {
  const created = await cliJson(createdModel, [
    "admin",
    "create-model",
    "--data-dir",
    dataDir,
    "--name",
    name,
    "--json",
  ]);
  return created.model_id;
}

async function addApp(app: { dataDir: string; modelId: string; name: string; scopes: string }) {
  const { dataDir, modelId, name, scopes } = app;
  const args = ["admin", "add-app", "--data-dir", dataDir, "--model", modelId, "--name", name, "--scopes", scopes];
  return cliJson(addedApp, [...args, "--json"]);
}

describe("mdps serve and mdps admin", () => {
  it("prints one listening line, works with the admin commands while running, stops on SIGTERM", async () => {
    const dataDir = await tempDir();
    const server = await serve(["--data-dir", dataDir, "--region", "uk1"]);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.url.endsWith(":0")).toBe(false);

    const modelId = await createModel(dataDir, "churn");
    const app = await addApp({ dataDir, modelId, name: "nb", scopes: "shared.health.read shared.blob.upload" });
    expect(app.client_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const creds = { modelId, clientId: app.client_id, clientSecret: app.client_secret };
    const token = await tokenFor(server.url, creds);
    const health = await new Api(server.url, token, modelId).call("GET", "/api/shared/health");
    expect(health.body).toMatchObject({ status: "healthy", region: "uk1" });

    const regenerated = await cliJson(regeneratedSecret, [
      "admin",
      "regenerate-secret",
      "--data-dir",
      dataDir,
      "--client-id",
      app.client_id,
      "--json",
    ]);
    expect(
      (
        await exchange(server.url, {
          grant_type: "client_credentials",
          client_id: app.client_id,
          client_secret: app.client_secret,
        })
      ).status,
    ).toBe(401);
    expect(await tokenFor(server.url, { ...creds, clientSecret: regenerated.client_secret })).toBeTruthy();

    const models = await cliJson(z.array(z.unknown()), ["admin", "list-models", "--data-dir", dataDir, "--json"]);
    expect(models).toEqual([
      expect.objectContaining({
        model_id: modelId,
        name: "churn",
        applications: [{ client_id: app.client_id, name: "nb", scopes: ["shared.health.read", "shared.blob.upload"] }],
      }),
    ]);
    const human = await runCli(["admin", "list-models", "--data-dir", dataDir]);
    expect(human.stdout).toContain("churn");
    expect(human.stdout).toContain(app.client_id);
    expect(human.stdout).not.toContain(regenerated.client_secret);

    server.child.kill("SIGTERM");
    expect(await server.exited).toEqual({ code: 0, signal: null });
    // The listening line, then the portal's one-time login link (docs/contract.md#application-portal).
    expect(server.stdout()).toMatch(/^listening on \S+\nportal: \S+\/login\?token=[\w-]{43}\n$/);
    expect(server.stdout().startsWith(`listening on ${server.url}\nportal: ${server.url}/login?token=`)).toBe(true);
  });

  it("--api-rate-limit, --token-rate-limit and --token-address-rate-limit set the limits; a bad value is a one-line error", async () => {
    const dataDir = await tempDir();
    const server = await serve([
      "--data-dir",
      dataDir,
      "--api-rate-limit",
      "5",
      "--token-rate-limit",
      "7",
      "--token-address-rate-limit",
      "2",
    ]);
    const modelId = await createModel(dataDir, "m");
    const app = await addApp({ dataDir, modelId, name: "a", scopes: "shared.health.read" });
    const exchanged = await exchange(server.url, {
      grant_type: "client_credentials",
      client_id: app.client_id,
      client_secret: app.client_secret,
    });
    expect(exchanged.headers.get("x-ratelimit-limit")).toBe("7");
    const health = await fetch(`${server.url}/api/shared/health`, {
      headers: { authorization: `Bearer ${granted(exchanged).access_token}` },
    });
    expect(health.status).toBe(200);
    expect(health.headers.get("x-ratelimit-limit")).toBe("5");
    // The address's budget of 2 is spent by the exchange above and this one.
    const wrong = { grant_type: "client_credentials", client_id: "someone-else", client_secret: "guess" };
    expect((await exchange(server.url, wrong)).status).toBe(401);
    const limited = await exchange(server.url, wrong);
    expect(expectProblem(limited, 429).detail).toContain("the limit is 2 per minute");

    const bad = await runCli(["serve", "--data-dir", dataDir, "--api-rate-limit", "-1"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    expect(bad.stderr).toMatch(/api-rate-limit/);
  });

  it("stops cleanly on SIGINT", async () => {
    const server = await serve(["--data-dir", await tempDir()]);
    server.child.kill("SIGINT");
    expect((await server.exited).code).toBe(0);
  });

  it("admin errors are one line on stderr and exit 1", async () => {
    const dataDir = await tempDir();
    const run = await runCli([
      "admin",
      "add-app",
      "--data-dir",
      dataDir,
      "--model",
      "6f1c7c8e-0000-4000-8000-000000000000",
      "--name",
      "x",
      "--scopes",
      "shared.health.read",
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/no model 6f1c7c8e-0000-4000-8000-000000000000/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    const { model_id } = await cliJson(createdModel, [
      "admin",
      "create-model",
      "--data-dir",
      dataDir,
      "--name",
      "m",
      "--json",
    ]);
    const bad = await runCli([
      "admin",
      "add-app",
      "--data-dir",
      dataDir,
      "--model",
      model_id,
      "--name",
      "x",
      "--scopes",
      "shared.everything",
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("shared.everything");
    const missing = await runCli(["admin", "create-model", "--data-dir", dataDir]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain("--name");
  });

  it("a port in use is a one-line error", async () => {
    const first = await serve(["--data-dir", await tempDir()]);
    const port = new URL(first.url).port;
    const run = await runCli(["serve", "--port", port, "--data-dir", await tempDir()]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/EADDRINUSE|in use/);
    first.child.kill("SIGTERM");
    await first.exited;
  });
});

describe("crash safety", () => {
  it("kill -9 during an upload leaves a consistent store: no row, no orphan, earlier blobs intact", async () => {
    const dataDir = await tempDir();
    const server = await serve(["--data-dir", dataDir]);
    const modelId = await createModel(dataDir, "m");
    const app = await addApp({ dataDir, modelId, name: "a", scopes: "shared.blob.upload shared.blob.download" });
    const creds = { modelId, clientId: app.client_id, clientSecret: app.client_secret };
    const token = await tokenFor(server.url, creds);
    const api = new Api(server.url, token, modelId);
    const earlier = json(blobRecord, await api.upload("a,b\n1,2\n"));

    // A slow upload: the parts, then file bytes that keep coming until the server dies.
    const boundary = "mdpsboundary";
    const url = new URL(`${server.url}${api.blobPath(undefined, "upload")}`);
    const req = request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": `multipart/form-data; boundary=${boundary}` },
    });
    req.on("error", () => {});
    const field = (name: string, value: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    req.write(field("Name", "big.csv") + field("RecordType", "csv") + field("AccessTier", "hot"));
    req.write(
      `--${boundary}\r\nContent-Disposition: form-data; name="File"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\n`,
    );
    const chunk = Buffer.alloc(64 * 1024, "1,2\n");
    for (let i = 0; i < 32; i++) req.write(chunk);
    // Wait until the server has bytes of the upload in its temp folder (tmp/<process>/), then kill it hard.
    const tmp = join(dataDir, "tmp");
    const tempFiles = async () =>
      (await readdir(tmp, { recursive: true, withFileTypes: true }))
        .filter((e) => e.isFile())
        .map((e) => join(e.parentPath, e.name));
    for (let i = 0; i < 200; i++) {
      const [first] = await tempFiles();
      if (first !== undefined && (await stat(first)).size > 0) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(await tempFiles()).toHaveLength(1);
    server.child.kill("SIGKILL");
    expect((await server.exited).signal).toBe("SIGKILL");
    req.destroy();

    const restarted = await serve(["--data-dir", dataDir]);
    // The killed process's folder is swept (its pid is gone); the new one's is empty.
    expect(await tempFiles()).toEqual([]);
    expect(await readdir(tmp)).toHaveLength(1);
    expect(await readdir(join(dataDir, "blobs"))).toEqual([`${earlier.id}.1`]);
    const db = openSqlite(join(dataDir, "mdps.sqlite"), { readOnly: true });
    expect(db.prepare("SELECT id FROM blobs").all()).toEqual([{ id: earlier.id }]);
    db.close();
    const again = new Api(restarted.url, token, modelId);
    const bytes = (await again.download(earlier.id)).body;
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(earlier.sha256);
    restarted.child.kill("SIGTERM");
    await restarted.exited;
  });
});
