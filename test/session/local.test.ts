/** Session.local(): persistent data dir, its own credentials in a 0600 file, reuse, recovery. */
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inspect } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { request } from "undici";
import { CREDENTIALS_FILE, Session, defaultLocalDataDir } from "../../src/index.js";
import { sampleFrame, tempDir } from "./session-fixture.js";

const dirs: Array<ReturnType<typeof tempDir>> = [];
afterEach(() => dirs.splice(0).forEach((d) => d.remove()));

describe("Session.local", () => {
  it("creates its model and app once, keeps the credentials in a 0600 file, reuses them", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const first = await Session.local({ dataDir: dir.path, service: { jobWorkers: 1 } });
    const file = join(dir.path, CREDENTIALS_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(readFileSync(file, "utf8")) as {
      model_id: string;
      client_id: string;
      client_secret: string;
    };
    expect(first.modelId).toBe(saved.model_id);
    expect(first.isLocal).toBe(true);
    expect(first.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const blob = await first.upload(sampleFrame(10));
    const url = first.baseUrl;
    for (const text of [String(first), inspect(first, { depth: 10 }), JSON.stringify(first)]) {
      expect(text).not.toContain(saved.client_secret);
    }
    await first.close();
    await expect(request(`${url}/api/shared/health`)).rejects.toThrow();

    const second = await Session.local({ dataDir: dir.path, service: { jobWorkers: 1 } });
    expect(second.modelId).toBe(saved.model_id);
    expect(second.client.config.clientId).toBe(saved.client_id);
    // The blob stored by the first run is still there.
    const again = await second.client.blobs.download(blob.id);
    await again.body.toArray(); // drain the body
    expect(again.status).toBe(200);
    await second.close();
    await second.close(); // twice is fine
  });

  it("recovers when the credentials file no longer matches the database", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const first = await Session.local({ dataDir: dir.path, service: { jobWorkers: 1 } });
    const modelId = first.modelId;
    await first.close();
    const file = join(dir.path, CREDENTIALS_FILE);
    const saved = JSON.parse(readFileSync(file, "utf8")) as Record<string, string>;
    writeFileSync(file, JSON.stringify({ ...saved, client_secret: "wrong-secret-wrong-secret-wrong-secret" }), {
      mode: 0o600,
    });
    const second = await Session.local({ dataDir: dir.path, service: { jobWorkers: 1 } });
    expect(second.modelId).toBe(modelId);
    expect(second.client.config.clientId).not.toBe(saved.client_id);
    expect((await second.health()).status).toBe("healthy");
    await second.close();
  });

  it("defaults to $MDPS_HOME/local, else ~/.mdps/local", () => {
    expect(defaultLocalDataDir({ MDPS_HOME: "/data/m" })).toBe("/data/m/local");
    expect(defaultLocalDataDir({})).toMatch(/\.mdps\/local$/);
  });

  it("a second Session.local() on a data dir already served starts its own server on the shared store; closing it leaves the first running", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const first = await Session.local({ dataDir: dir.path, service: { jobWorkers: 1 } });
    const second = await Session.local({ dataDir: dir.path, service: { jobWorkers: 1 } });
    expect(second.baseUrl).not.toBe(first.baseUrl);
    expect(second.modelId).toBe(first.modelId);
    expect((await second.health()).status).toBe("healthy");

    const job = await second.preprocess(sampleFrame(20), { type: "StandardScaler" });
    expect((await job.wait()).status).toBe("succeeded");
    await second.close();
    await expect(request(`${second.baseUrl}/api/shared/health`)).rejects.toThrow();

    // The first sees the job the second sent: one store.
    expect((await first.job(job.id).status()).status).toBe("succeeded");
    expect((await first.health()).status).toBe("healthy");
    await first.close();
    await expect(request(`${first.baseUrl}/api/shared/health`)).rejects.toThrow();
  });
});
