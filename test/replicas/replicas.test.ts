/**
 * `mdps serve` replicas on one PostgreSQL store and one shared data dir (blob bytes): a
 * real cluster (test/harness/postgres.ts), real child processes. One service on the store
 * serves a Session end to end; behind nginx, clients upload and send jobs while one replica
 * is killed (-9), one is paused past its lease, and a new one starts: every acknowledged
 * upload reads back with its sha256, every accepted job ends once with one committed
 * output; a PostgreSQL restart mid-run; a Session through the proxy.
 */
import { createHash, randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { blobRecord, jobResult, logDetails, type BlobRecord } from "../../src/core/contract/index.js";
import { Session } from "../../src/index.js";
import { openPgPort } from "../../src/server/store/postgres/port.js";
import { nginxTool, startNginx } from "../harness/nginx.js";
import { ServiceStarter, type ServiceChild } from "../harness/service-starter.js";
import { postgresTool } from "../harness/postgres.js";
import { describeWithTool } from "../required-tool.js";
import { Api, json, preprocessingBody, referenceJob, tokenFor, type Reply } from "../service/service-harness.js";
import { useCluster } from "../store-pg/cluster.js";
import { registerPgApp } from "./pg-app.js";

const LEASE_MS = 1500;
/** The first jobs sent: long Yeo-Johnson fits (seconds each), so that the faults meet them running. */
const LONG = 6;
const sha256 = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");

/** Waits until each of `pids` runs one of `jobIds` (its first log line names the process); the job each runs. */
async function runningOn(api: Api, jobIds: readonly string[], pids: readonly number[]): Promise<Map<number, string>> {
  const deadline = Date.now() + 30_000;
  const found = new Map<number, string>();
  while (found.size < pids.length) {
    if (Date.now() > deadline)
      throw new Error(`no job started on process(es) ${pids.filter((p) => !found.has(p)).join(", ")}`);
    for (const id of jobIds) {
      const job = json(referenceJob, await api.call("GET", `/api/job/${id}/get`));
      if (job.status !== "running") continue;
      const logs = json(logDetails, await api.call("GET", `/api/job/${id}/logs`));
      for (const m of logs.messages) {
        const pid = m.container?.processId;
        if (pid !== undefined && pids.includes(pid) && !found.has(pid)) found.set(pid, id);
      }
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return found;
}

/** Waits until `jobId` was claimed again (a second attempt), as another replica takes it over. */
async function waitTakenOver(api: Api, jobId: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const job = json(referenceJob, await api.call("GET", `/api/job/${jobId}/get`));
    if (job.events.some((e) => e.status === "running" && /^attempt [2-9] /.test(e.message ?? ""))) return;
    if (Date.now() > deadline) throw new Error(`job ${jobId} was not taken over in 60 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function csv(rows: number, seed: number): string {
  const lines = ["a,b"];
  for (let i = 0; i < rows; i++) lines.push(`${(i * 7 + seed) % 1000},${(i * 13 + seed) % 97}`);
  return `${lines.join("\n")}\n`;
}

describeWithTool(postgresTool, "replicas of mdps serve on one PostgreSQL store", () => {
  const pgc = useCluster();
  const starter = new ServiceStarter("mdps-replicas-");
  afterAll(() => starter.cleanup());

  it("one service on PostgreSQL serves a Session end to end; health names the replica and the store, never its password", async () => {
    const url = await pgc.fresh();
    const service = await starter.start({ store: url, jobWorkers: 1 });
    const app = await registerPgApp(url);
    const session = await Session.connect({ baseUrl: service.url, ...app, env: {}, configFile: false });
    try {
      const dir = await mkdtemp(join(tmpdir(), "mdps-replicas-data-"));
      try {
        const file = join(dir, "small.csv");
        await writeFile(file, "a,b\n1,10\n2,20\n3,30\n");
        const blob = await session.upload(file);
        const job = await session.preprocess(blob, { type: "StandardScaler", columns: ["a", "b"] });
        expect((await job.wait()).status).toBe("succeeded");
        const result = await job.result();
        expect(result.rows).toBe(3);
        expect(result.outputs).toHaveLength(1);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    } finally {
      await session.close();
    }
    const api = new Api(service, await tokenFor(service, app), app.modelId);
    const health = (await api.call("GET", "/api/shared/health")).body as Record<string, unknown>;
    expect(health.status).toBe("healthy");
    expect(String(health.store)).toMatch(/^postgres:\/\/mdps:\*\*\*@127\.0\.0\.1:/);
    expect(String(health.replica)).toMatch(new RegExp(`-${process.pid}-`));
    expect(JSON.stringify(health)).not.toContain(pgc.cluster().password);
    // The portal's login link is kept in the shared store: it opens a session on the service.
    const login = await fetch(await service.portalLoginLink(), { redirect: "manual" });
    expect(login.status).toBe(303);
    expect(login.headers.get("set-cookie")).toMatch(/^mdps_portal/);
  });

  it("a PostgreSQL restart mid-run: requests meanwhile succeed or get a 503 to retry; nothing acknowledged is lost", async () => {
    const url = await pgc.fresh();
    const dataDir = await starter.tempDir();
    const spawn = () => starter.spawn({ lease: { dataDir, leaseMs: LEASE_MS, workers: 1 }, env: { MDPS_STORE: url } });
    const replicas = await Promise.all([spawn(), spawn()]);
    const app = await registerPgApp(url);
    const token = await tokenFor(replicas[0], app);
    const apis = replicas.map((r) => new Api(r, token, app.modelId));
    const acknowledged: Array<{ record: BlobRecord; sha: string }> = [];
    const sent: string[] = [];
    const answers = new Map<number, number>();
    /** One upload and its job, through either replica: refused only with a 503 that says to retry. */
    const work = async (i: number) => {
      const bytes = csv(i < 2 ? 400_000 : 200, i);
      const api = apis[i % 2]!;
      const reply = await api.upload(bytes);
      answers.set(reply.status, (answers.get(reply.status) ?? 0) + 1);
      if (reply.status !== 200) {
        expect(reply.status, JSON.stringify(reply.body)).toBe(503);
        expect(reply.headers.get("retry-after")).toBe("5");
        expect((reply.body as { code: string }).code, JSON.stringify(reply.body)).toBe("storage_unavailable");
        return;
      }
      const record = json(blobRecord, reply);
      acknowledged.push({ record, sha: sha256(bytes) });
      const type = i < 2 ? { preprocessing_type: "PowerTransformer" } : {};
      const job = await api.call(
        "POST",
        "/api/ml/preprocessing/job/send",
        preprocessingBody(app.modelId, record.id, type),
      );
      if (job.status === 200) sent.push(json(referenceJob, job).id);
      else expect(job.status, JSON.stringify(job.body)).toBe(503);
    };
    for (let i = 0; i < 4; i++) await work(i);
    await runningOn(apis[0]!, sent, [replicas[0].pid]);
    // The restart ends every session: the replicas' pools and their process locks.
    const restarting = pgc.cluster().restart();
    // Requests while the server stops and starts again.
    await Promise.all([restarting, ...Array.from({ length: 6 }, (_, i) => work(10 + i))]);
    // Back: both replicas answer, take their locks again and finish every accepted job.
    await new Promise((r) => setTimeout(r, 1500));
    for (let i = 20; i < 24; i++) await work(i);
    console.log(
      `postgres restart: answers ${JSON.stringify(Object.fromEntries(answers))}, ${sent.length} jobs accepted`,
    );
    for (const id of sent) {
      const job = await apis[1]!.waitForJob(id, undefined, 120_000);
      const logs = json(logDetails, await apis[1]!.call("GET", `/api/job/${id}/logs`));
      const why = `${id}: ${JSON.stringify(job.error)} ${logs.messages.map((m) => m.message).join(" | ")}`;
      expect(job.status, why).toBe("succeeded");
    }
    for (const { record, sha } of acknowledged) {
      const download = await apis[0]!.download(record.id);
      expect(sha256(download.body), record.id).toBe(sha);
    }
    const health = await Promise.all(apis.map(async (api) => (await api.call("GET", "/api/shared/health")).body));
    expect(health.map((h) => (h as { status: string }).status)).toEqual(["healthy", "healthy"]);
  }, 180_000);

  describeWithTool(nginxTool, "behind nginx", () => {
    it("clients through nginx while one replica is killed, one paused past its lease and one started: nothing acknowledged is lost, every job ends once", async () => {
      const url = await pgc.fresh();
      const dataDir = await starter.tempDir();
      const spawn = () =>
        starter.spawn({ lease: { dataDir, leaseMs: LEASE_MS, workers: 1 }, env: { MDPS_STORE: url } });
      const replicas: ServiceChild[] = await Promise.all([spawn(), spawn(), spawn()]);
      const proxy = await startNginx(replicas.map((r) => `127.0.0.1:${r.port}`));
      try {
        const app = await registerPgApp(url);
        const token = await tokenFor(proxy.url, app);
        // Every request of the clients goes through the proxy; the test looks at replica 0 directly.
        const client = new Api(proxy.url, token, app.modelId);
        const uploaded: Array<{ record: BlobRecord; sha: string }> = [];
        const sent: string[] = [];
        /**
         * What a careful client does through a proxy: an upload answered 502-504 (the proxy lost its
         * replica mid-request) was not acknowledged and is sent again; a job is sent with its own
         * job_id (the idempotent send), so sending it again after such an answer is safe.
         */
        const retried = async (request: () => Promise<Reply>) => {
          for (let attempt = 1; ; attempt++) {
            const reply = await request();
            if (![502, 503, 504].includes(reply.status) || attempt === 10) return reply;
            unanswered++;
            await new Promise((r) => setTimeout(r, 200));
          }
        };
        let unanswered = 0;
        const uploadAndSend = async (i: number) => {
          // The first inputs are large, and their Yeo-Johnson fits run for seconds: the faults meet them running.
          const bytes = csv(i < LONG ? 800_000 : 50, i);
          const record = json(blobRecord, await retried(() => client.upload(bytes)));
          expect(record.sha256).toBe(sha256(bytes));
          uploaded.push({ record, sha: sha256(bytes) });
          const type = i < LONG ? { preprocessing_type: "PowerTransformer" } : {};
          const payload = preprocessingBody(app.modelId, record.id, type);
          const body = { job_id: randomUUID(), model_id: app.modelId, job_type: "preprocessing", payload };
          sent.push(json(referenceJob, await retried(() => client.call("POST", "/api/job/send", body))).id);
        };
        for (let i = 0; i < 18; i++) await uploadAndSend(i);

        // The faults as soon as both replicas run a long job (pause first: a signal, at once), then
        // clients keep uploading and sending through the proxy while the paused one is frozen.
        const direct = new Api(replicas[0]!, token, app.modelId);
        const running = await runningOn(direct, sent.slice(0, LONG), [replicas[1]!.pid, replicas[2]!.pid]);
        process.kill(replicas[2]!.pid, "SIGSTOP");
        await replicas[1]!.kill("SIGKILL");
        const meanwhile = (async () => {
          for (let i = 18; i < 24; i++) await uploadAndSend(i);
        })();
        // A new replica with an idle worker takes the frozen one's job once its lease runs out;
        // the frozen one resumes only then (its late writes must be refused).
        await spawn();
        await waitTakenOver(direct, running.get(replicas[2]!.pid)!);
        process.kill(replicas[2]!.pid, "SIGCONT");
        await meanwhile;

        let takenOver = 0;
        for (const id of sent) {
          const job = await client.waitForJob(id, undefined, 120_000);
          // Each claim's event names its attempt ("attempt 2 on ...; taken over from ...").
          if (job.events.some((e) => e.status === "running" && /^attempt [2-9] /.test(e.message ?? ""))) takenOver++;
          expect(job.status, `job ${id}`).toBe("succeeded");
          // Ended once: one terminal event, however many attempts it took.
          const terminal = job.events.filter((e) =>
            ["succeeded", "failed", "timed_out", "cancelled"].includes(e.status),
          );
          expect(
            terminal.map((e) => e.status),
            `job ${id}`,
          ).toEqual(["succeeded"]);
          const result = json(jobResult, await client.call("GET", `/api/job/${id}/result`));
          const [committed, ...more] = result.outputs ?? [];
          expect(committed && more.length === 0, `job ${id} has one output`).toBe(true);
          const output = await client.download(committed!.id);
          expect(output.status).toBe(200);
          expect(sha256(output.body)).toBe(committed!.sha256);
        }
        console.log(
          `replicas: ${takenOver} of ${sent.length} jobs ran again after a replica was killed or paused; ${unanswered} requests answered 502-504 and sent again`,
        );
        expect(takenOver, "the killed and the paused replica each lose the job they ran").toBeGreaterThanOrEqual(2);
        // Every acknowledged upload reads back whole, whichever replica answers.
        for (const { record, sha } of uploaded) {
          const download = await client.download(record.id);
          expect(download.status, record.id).toBe(200);
          expect(sha256(download.body), record.id).toBe(sha);
        }
        // No output committed twice: one output blob per job (an upload cut before its answer may
        // have been stored, unacknowledged, so the inputs are not counted).
        const listed = await client.call("GET", `/api/model/${app.modelId}/shared/blobs?limit=500`);
        const outputs = (listed.body as { items: Array<{ name: string }> }).items.filter((b) => b.name === "out.csv");
        expect(outputs).toHaveLength(sent.length);
      } finally {
        await proxy.stop();
      }
    }, 180_000);

    it("a Session through nginx in front of three replicas works as against one mdps serve, one replica killed", async () => {
      const url = await pgc.fresh();
      const dataDir = await starter.tempDir();
      const spawn = () =>
        starter.spawn({ lease: { dataDir, leaseMs: LEASE_MS, workers: 1 }, env: { MDPS_STORE: url } });
      const replicas = await Promise.all([spawn(), spawn(), spawn()]);
      const proxy = await startNginx(replicas.map((r) => `127.0.0.1:${r.port}`));
      try {
        const app = await registerPgApp(url);
        const session = await Session.connect({ baseUrl: proxy.url, ...app, env: {}, configFile: false });
        const dir = await mkdtemp(join(tmpdir(), "mdps-replicas-proxy-"));
        try {
          // Requests spread: health through the proxy names more than one replica.
          const api = new Api(proxy.url, await tokenFor(proxy.url, app), app.modelId);
          const named = new Set<string>();
          for (let i = 0; i < 9; i++) {
            const health = (await api.call("GET", "/api/shared/health")).body as { replica: string };
            named.add(health.replica);
          }
          expect(named.size, [...named].join(", ")).toBeGreaterThan(1);
          const run = async (name: string) => {
            const file = join(dir, name);
            await writeFile(file, csv(200, name.length));
            const blob = await session.upload(file);
            const job = await session.preprocess(blob, { type: "StandardScaler", columns: ["a", "b"] });
            expect((await job.wait()).status).toBe("succeeded");
            const [output] = await job.outputs();
            expect(output!.record.size_bytes).toBeGreaterThan(0);
          };
          await run("before.csv");
          // A portal session made through one replica is valid on every one.
          const store = await openPgPort({ url, region: "local" });
          const loginToken = await store.portal.createLoginToken();
          await store.close();
          const login = await fetch(`${proxy.url}/login?token=${loginToken}`, { redirect: "manual" });
          expect(login.status).toBe(303);
          const cookie = login.headers.get("set-cookie")!.split(";")[0]!;
          const pages = [];
          for (let i = 0; i < 6; i++)
            pages.push((await fetch(`${proxy.url}/models`, { headers: { cookie }, redirect: "manual" })).status);
          expect(pages).toEqual([200, 200, 200, 200, 200, 200]);
          // A replica killed: the proxy sends new connections to the others.
          await replicas[1].kill("SIGKILL");
          for (const name of ["after-1.csv", "after-22.csv", "after-333.csv"]) await run(name);
        } finally {
          await session.close();
          await rm(dir, { recursive: true, force: true });
        }
      } finally {
        await proxy.stop();
      }
    }, 120_000);
  });
});
