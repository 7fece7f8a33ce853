/** session.modelBlobs(), session.jobs() and session.portalUrl(). */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError } from "../../src/client/errors.js";
import { Session } from "../../src/index.js";
import { Harness } from "../service/service-harness.js";

const h = new Harness();
const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const c of cleanups) await c();
  await h.cleanup();
});

describe("a local session", () => {
  it("lists the model's blobs and jobs from the service, across sessions, and makes portal links", async () => {
    const dir = await mkdtemp(join(tmpdir(), "mdps-list-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const first = await Session.local({ dataDir: dir, service: { jobWorkers: 1 } });
    const csv = new TextEncoder().encode("a,b\n1,2\n3,5\n");
    const a = await first.upload(csv, { name: "a.csv", recordType: "csv", tags: ["t"] });
    const job = await first.preprocess(a, { type: "StandardScaler" });
    await job.wait();
    await first.close();

    const second = await Session.local({ dataDir: dir, service: { jobWorkers: 1 } });
    cleanups.push(() => second.close());
    const b = await second.upload(csv, { name: "b.csv", recordType: "csv" });
    expect(second.blobs().map((x) => x.id)).toEqual([b.id]);
    const listed = (await second.modelBlobs()).map((r) => r.id);
    expect(listed[0]).toBe(b.id);
    expect(listed).toContain(a.id);
    expect((await second.modelBlobs({ tag: "t" })).map((r) => r.id)).toEqual([a.id]);
    expect(await second.modelBlobs({ limit: 1 })).toHaveLength(1);
    const jobs = await second.jobs();
    expect(jobs.map((j) => j.id)).toContain(job.id);
    expect((await second.jobs({ status: "failed" })).map((j) => j.id)).not.toContain(job.id);

    const one = second.portalUrl();
    const two = second.portalUrl();
    expect(one).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/login\?link=[\w-]{43}$/);
    expect(two).not.toBe(one);
    const link = second.portalLink();
    expect(link.toHTML()).toMatch(
      /<a href="http:\/\/127\.0\.0\.1:\d+\/login\?link=[^"]+" target="_blank" rel="noopener noreferrer">Open the portal<\/a>/,
    );
    expect(String(link)).toBe(link.url);
  });
});

describe("a connected session", () => {
  it("says the portal link comes from the operator", async () => {
    const service = await h.start();
    const app = h.app(service.dataDir);
    const session = await Session.connect({ baseUrl: service.url, ...app, env: {}, configFile: false });
    cleanups.push(() => session.close());
    expect(() => session.portalUrl()).toThrow(ConfigError);
    expect(() => session.portalUrl()).toThrow(/operator.*mdps admin portal-link/);
    // The reference service declares job-list: the model's jobs come from it.
    expect(await session.jobs()).toEqual([]);
  });
});
