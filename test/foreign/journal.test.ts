/**
 * The client journal: a new Session (a restarted kernel) finds the jobs and blobs an
 * earlier one made, at a service that cannot list them (test/foreign-service) and at
 * ours (which can); the file is 0600 and holds no secret.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Session } from "../../src/index.js";
import { SCOPES } from "../../src/core/contract/scopes.js";
import { openAdmin, type RunningService } from "../../src/server/index.js";
import { ServiceStarter } from "../harness/service-starter.js";
import { sampleFrame, tempDir } from "../session/session-fixture.js";
import { connectTo, runWorkflow, SCALED_A, useForeignSessions } from "./foreign-helpers.js";

const starter = new ServiceStarter();
const { start, keep } = useForeignSessions({ jobDelayMs: 30 });

describe("the journal at a service that cannot list jobs or blobs", () => {
  it("a restarted session finds the earlier jobs (with their status) and blobs, and reads their results", async () => {
    const service = await start();
    const journal = join(tempDir("mdps-journal-").path, "journal.jsonl");
    const first = keep(await connectTo(service, { journal }));
    const { job } = await runWorkflow(first);
    const earlierBlobs = first.blobs().map((b) => b.id);
    expect(earlierBlobs).toHaveLength(2); // the input and the output read back
    await first.close();

    const second = keep(await connectTo(service, { journal }));
    const jobs = await second.jobs();
    expect(jobs.map((j) => j.id)).toEqual([job.id]);
    // A limit reads the status of no more earlier jobs than it returns.
    const gets = () => service.requests().filter((r) => r.method === "GET" && r.path.includes(job.id)).length;
    const before = gets();
    expect(await second.jobs({ limit: 0 })).toEqual([]);
    expect(gets()).toBe(before);
    expect(jobs[0]!.type).toBe("StandardScaler");
    expect(jobs[0]!.record?.status).toBe("succeeded");
    const output = await jobs[0]!.dataframe();
    (output["a"] as { values: number[] }).values.forEach((v, i) => expect(v).toBeCloseTo(SCALED_A[i]!, 9));
    expect(second.blobs().map((b) => b.id)).toEqual(earlierBlobs);
    expect((await second.modelBlobs()).map((r) => r.id).sort()).toEqual([...earlierBlobs].sort());

    // A blob deleted through any session leaves the journal's list.
    await second.blobs()[0]!.delete();
    const third = keep(await connectTo(service, { journal }));
    expect(third.blobs().map((b) => b.id)).toEqual(earlierBlobs.slice(1));
  });

  it("journal: false keeps none; a torn last line is skipped", async () => {
    const service = await start();
    const dir = tempDir("mdps-journal-").path;
    const journal = join(dir, "journal.jsonl");
    const off = keep(await connectTo(service, { journal: false }));
    await runWorkflow(off);
    expect(readdirSync(dir)).toEqual([]);

    const on = keep(await connectTo(service, { journal }));
    await runWorkflow(on);
    writeFileSync(journal, readFileSync(journal, "utf8") + '{"kind":"job","id":"torn', { flag: "w" });
    const after = keep(await connectTo(service, { journal }));
    expect(await after.jobs()).toHaveLength(1);
  });
});

describe("the journal at our reference service", () => {
  let dir: ReturnType<typeof tempDir>;
  let service: RunningService;
  let app: { modelId: string; clientId: string; clientSecret: string };

  beforeAll(async () => {
    dir = tempDir("mdps-journal-ref-");
    service = await starter.start({ dataDir: join(dir.path, "data"), jobWorkers: 1 });
    const admin = openAdmin(join(dir.path, "data"));
    try {
      const { model_id } = admin.createModel("m");
      const created = admin.addApp({ modelId: model_id, name: "journal", scopes: [...SCOPES] });
      app = { modelId: model_id, clientId: created.client_id, clientSecret: created.client_secret };
    } finally {
      admin.close();
    }
  });
  afterAll(async () => {
    await starter.cleanup();
    dir.remove();
  });

  it("sits in the config dir, 0600 in a 0700 dir, and never holds a secret, token or key", async () => {
    const env = { XDG_CONFIG_HOME: join(dir.path, "xdg") };
    const connect = () =>
      Session.connect({
        baseUrl: service.url,
        clientId: app.clientId,
        clientSecret: app.clientSecret,
        modelId: app.modelId,
        env,
      });
    const session = keep(await connect());
    const job = await session.preprocess(sampleFrame(20), { type: "StandardScaler", encrypt: true });
    await job.dataframe();
    const key = job.input?.encryptionKey?.reveal();
    expect(key).toBeDefined();
    const journalDir = join(dir.path, "xdg", "mdps", "journal");
    const [file] = readdirSync(journalDir);
    const path = join(journalDir, file!);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(journalDir).mode & 0o777).toBe(0o700);
    const text = readFileSync(path, "utf8");
    expect(text).toContain(job.id);
    expect(text).not.toContain(app.clientSecret);
    expect(text).not.toContain(key!);
    expect(text).not.toContain("encryption_key");
    expect(text).not.toContain("access_token");

    // Ours lists the model's jobs itself; the journal's job is among them.
    const again = keep(await connect());
    expect((await again.jobs()).map((j) => j.id)).toContain(job.id);
  });
});
