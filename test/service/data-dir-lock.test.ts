import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { DataDirInUseError, readDataDirLock } from "../../src/service/index.js";
import { lockPath } from "../../src/service/data-dir-lock.js";
import { Harness } from "./service-harness.js";

describe("one server per data dir", () => {
  const harness = new Harness();
  afterEach(() => harness.cleanup());

  it("refuses a second server on a data dir in use, naming where the first listens", async () => {
    const dataDir = await harness.tempDir();
    const first = await harness.start({ dataDir });
    expect(readDataDirLock(dataDir)).toMatchObject({ pid: process.pid, url: first.url });

    const second = harness.start({ dataDir });
    await expect(second).rejects.toBeInstanceOf(DataDirInUseError);
    await expect(second).rejects.toThrow(first.url);

    // The refused start touched nothing: the first still serves.
    const health = await fetch(`${first.url}/api/shared/health`);
    expect(health.status).toBe(401);
  });

  it("frees the data dir on close", async () => {
    const dataDir = await harness.tempDir();
    const first = await harness.start({ dataDir });
    await first.close();
    expect(readDataDirLock(dataDir)).toBeNull();
    const again = await harness.start({ dataDir });
    expect(readDataDirLock(dataDir)?.url).toBe(again.url);
  });

  it("takes over the lock of a server that died without releasing it", async () => {
    const dataDir = await harness.tempDir();
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
    const stale = {
      pid: Number(dead.stdout),
      hostname: hostname(),
      started_at: new Date().toISOString(),
      region: "local",
      url: "http://127.0.0.1:1",
    };
    writeFileSync(lockPath(dataDir), JSON.stringify(stale));
    expect(readDataDirLock(dataDir)).toBeNull();
    const service = await harness.start({ dataDir });
    expect(readDataDirLock(dataDir)?.url).toBe(service.url);
  });
});
