/**
 * Waiting without polling (docs/contract.md#extensions): job get's `wait`/`since` and the
 * record's `revision`, declared in health's capabilities; the wake-up comes from the
 * shared store, so a waiter in one process hears a job that another process runs.
 */
import { afterAll, describe, expect, it } from "vitest";
import { encryptBuffer, generateEncryptionKey, parseEncryptionKey } from "../../src/core/crypto/index.js";
import { Api, Harness, numericCsv, preprocessingBody, tokenFor } from "./service-harness.js";
import { spawnService, type ServiceProcess } from "./service-process.js";

const h = new Harness();
const children: ServiceProcess[] = [];
afterAll(async () => {
  await Promise.all(children.map((c) => c.kill("SIGKILL")));
  await h.cleanup();
});

interface Job {
  id: string;
  status: string;
  phase: string | null;
  progress: number;
  revision: number;
}

const TERMINAL = ["succeeded", "failed", "timed_out", "cancelled"];

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = Date.now();
  const value = await fn();
  return { value, ms: Date.now() - t0 };
}

describe("job get with wait and since", () => {
  it("declares wait; answers at once when the revision is past since or the job is terminal, else after wait", async () => {
    const service = await h.inject();
    const app = h.app(service.dataDir);
    const api = new Api(service, await tokenFor(service, app), app.modelId);
    const health = (await api.call("GET", "/api/shared/health")).body as { capabilities: string[] };
    expect(health.capabilities).toContain("wait");

    const blob = (await api.upload("a\n1\n2\n")).body as { id: string };
    const sent = (await api.call("POST", "/api/ml/preprocessing/job/send", preprocessingBody(api.modelId, blob.id)))
      .body as Job;
    expect(sent.revision).toBeGreaterThanOrEqual(1);
    const done = await api.waitForJob(sent.id);
    expect(done.status).toBe("succeeded");
    const revision = (done as unknown as Job).revision;
    expect(revision).toBeGreaterThan(sent.revision);

    // Terminal: at once, even when nothing changed since `since`. "At once" is told from
    // "after the wait" by the longest wait there is: an answer well before it did not wait,
    // however busy the machine.
    const terminal = await timed(() => api.call("GET", `/api/job/${sent.id}/get?wait=60&since=${revision}`));
    expect(terminal.value.status).toBe(200);
    expect(terminal.ms).toBeLessThan(45_000);
    // Already past `since`: at once.
    const past = await timed(() => api.call("GET", `/api/job/${sent.id}/get?wait=60&since=0`));
    expect((past.value.body as Job).revision).toBe(revision);
    expect(past.ms).toBeLessThan(45_000);

    // Out of range: 400 naming the field.
    expect((await api.call("GET", `/api/job/${sent.id}/get?wait=61&since=0`)).status).toBe(400);
    expect((await api.call("GET", `/api/job/${sent.id}/get?wait=1&since=x`)).status).toBe(400);
  }, 240_000);

  it("a waiter in one process wakes on the changes another process makes to the job, without polling", async () => {
    const dataDir = await h.tempDir("mdps-wait-");
    const app = h.app(dataDir);
    const [runner, watcher] = await Promise.all([spawnService(dataDir), spawnService(dataDir)]);
    children.push(runner, watcher);
    const api = new Api(runner.url, await tokenFor(runner.url, app), app.modelId);
    const other = new Api(watcher.url, await tokenFor(watcher.url, app), app.modelId);

    // A job with keys runs only in the process that received them: `runner`.
    const key = generateEncryptionKey();
    const rows = Array.from({ length: 200_000 }, (_, i) => `${i},${(i * 7) % 13}`).join("\n");
    const input = (await api.upload(encryptBuffer(parseEncryptionKey(key), Buffer.from(`a,b\n${rows}\n`)))).body as {
      id: string;
    };
    const sent = (
      await api.call(
        "POST",
        "/api/ml/preprocessing/job/send",
        preprocessingBody(api.modelId, input.id, { input_encryption_key: key }),
      )
    ).body as Job;

    // Follow it from the other process with wait/since only, each answer's revision the next since.
    let since = sent.revision;
    const seen: Job[] = [];
    let requests = 0;
    const t0 = Date.now();
    for (;;) {
      const { value } = await timed(() => other.call("GET", `/api/job/${sent.id}/get?wait=60&since=${since}`));
      requests++;
      const job = value.body as Job;
      expect(value.status).toBe(200);
      // Every answer came because something changed: a wait that ran out would bring the same revision.
      expect(job.revision > since || TERMINAL.includes(job.status)).toBe(true);
      seen.push(job);
      since = job.revision;
      if (TERMINAL.includes(job.status)) break;
    }
    console.log(
      `followed a job run by another process: ${requests} requests in ${Date.now() - t0} ms; ` +
        seen.map((j) => `${j.revision}:${j.status}/${j.phase}`).join(" "),
    );
    expect(seen.at(-1)?.status).toBe("succeeded");
    expect(seen.some((j) => j.status === "running")).toBe(true);
    // The other process never ran it: every attempt's log line names the runner's pid.
    const logs = (
      (await other.call("GET", `/api/job/${sent.id}/logs`)).body as {
        messages: Array<{ message: string; container: { processId: number } }>;
      }
    ).messages;
    expect(logs.filter((m) => m.message.startsWith("attempt ")).map((m) => m.container.processId)).toEqual([
      runner.pid,
    ]);

    // Nothing changes any more: a wait with since = the revision of a terminal job is at once;
    // with since in the future (nothing can pass it) the answer comes after `wait`.
    const later = await timed(() => other.call("GET", `/api/job/${sent.id}/get?wait=60&since=${since + 100}`));
    expect(later.ms).toBeLessThan(45_000);
  }, 300_000);

  it("answers after wait seconds with the record as it is when nothing passes since", async () => {
    const service = await h.inject();
    const app = h.app(service.dataDir);
    const api = new Api(service, await tokenFor(service, app), app.modelId);
    const big = (await api.upload(numericCsv(1_200_000))).body as { id: string };
    const sent = (await api.call("POST", "/api/ml/preprocessing/job/send", preprocessingBody(api.modelId, big.id)))
      .body as Job;
    const running = (await api.waitForJob(sent.id, (j) => j.status === "running")) as unknown as Job;
    const { value, ms } = await timed(() =>
      api.call("GET", `/api/job/${sent.id}/get?wait=1&since=${running.revision + 1_000_000}`),
    );
    const job = value.body as Job;
    expect(value.status).toBe(200);
    if (!TERMINAL.includes(job.status)) expect(ms).toBeGreaterThanOrEqual(950);
    // It answers once the wait is over, not at the longest wait there is.
    expect(ms).toBeLessThan(45_000);
    await api.call("POST", `/api/job/${sent.id}/cancel`);
  }, 120_000);
});
