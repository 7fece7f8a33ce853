/** The client's calls for the list endpoints (docs/contract.md#extensions): pages, filters, and a service without them. */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { UnsupportedExtensionError } from "../../src/client/errors.js";
import { Session } from "../../src/session/session.js";
import type { CreatePreprocessingRequest } from "../../src/core/contract/job.js";
import { Harness, preprocessingBody } from "../service/service-harness.js";

const h = new Harness();
const closers: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const close of closers) await close();
  await h.cleanup();
});

async function connect() {
  const service = await h.start();
  const app = h.app(service.dataDir);
  const session = await Session.connect({ baseUrl: service.url, ...app, env: {}, configFile: false });
  closers.push(() => session.close());
  return { service, session };
}

describe("client list calls", () => {
  it("lists blobs and jobs page by page, with filters, and reads one blob's record", async () => {
    const { session } = await connect();
    const { client } = session;
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      const record = await client.blobs.upload(
        { name: `b${i}.csv`, recordType: "csv", tags: i === 1 ? ["one"] : [] },
        new TextEncoder().encode(`a\n${i}\n`),
      );
      made.push(record.id);
    }
    const first = await client.blobs.list({ limit: 2 });
    expect(first.items.map((b) => b.id)).toEqual([made[2], made[1]]);
    const second = await client.blobs.list({ limit: 2, cursor: first.next_cursor! });
    expect(second.items.map((b) => b.id)).toEqual([made[0]]);
    expect(second.next_cursor).toBeNull();
    expect((await client.blobs.list({ tag: "one" })).items.map((b) => b.id)).toEqual([made[1]]);
    expect((await client.blobs.list({ name: "b2.csv" })).items.map((b) => b.id)).toEqual([made[2]]);
    expect(await client.blobs.get(made[0]!)).toMatchObject({ id: made[0], name: "b0.csv" });

    const sent = await client.preprocessing.send(
      preprocessingBody(session.modelId, made[0]!) as unknown as CreatePreprocessingRequest,
    );
    await client.jobs.get(sent.id);
    for (let i = 0; i < 600 && !["succeeded", "failed"].includes((await client.jobs.get(sent.id)).status); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const job = sent;
    const jobs = await client.jobs.list({ status: "succeeded" });
    expect(jobs.items.map((j) => j.id)).toContain(job.id);
    expect(jobs.items[0]).not.toHaveProperty("events");
    expect((await client.preprocessing.list({ status: "failed" })).items).toEqual([]);
  });

  it("says in one sentence that a service without the extension does not offer it", async () => {
    // A service whose health declares nothing and which answers 404 to everything else.
    const server = createServer((req, res) => {
      if (req.url?.startsWith("/api/authorization")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ access_token: "t", token_type: "Bearer", expires_in: 3600 }));
      } else if (req.url?.startsWith("/api/shared/health")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ status: "healthy", region: "local" }));
      } else {
        res.writeHead(404, { "content-type": "application/json" });
        res.end("{}");
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    closers.push(() => new Promise((resolve) => server.close(resolve)));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const session = await Session.connect({
      baseUrl: url,
      clientId: "c",
      clientSecret: "s",
      modelId: "00000000-0000-4000-8000-000000000000",
      env: {},
      configFile: false,
    });
    closers.push(() => session.close());
    const error = await session.client.blobs.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedExtensionError);
    expect((error as Error).message).toMatch(/does not offer the blob list/);
    const jobError = await session.client.jobs.list().catch((e: unknown) => e);
    expect(jobError).toBeInstanceOf(UnsupportedExtensionError);
    expect((jobError as Error).message).toMatch(/does not offer the job list/);
  });
});
