/**
 * A replica claims a job another process queued as soon as it is announced (LISTEN/NOTIFY,
 * src/server/store/postgres/change-feed.ts), not at its next poll for work, and still does
 * after PostgreSQL restarts: a replica whose feed stayed deaf would only find such jobs by
 * its poll, once a second (a claim delay spread evenly over 0-1,000 ms, median 500).
 *
 * The "other process" is this test: it queues each job straight into the store, so the
 * replica's own send path (which looks for work at once) plays no part. The delay is
 * measured on the jobs' own rows: created_at (here) to started_at (the replica's claim).
 */
import { randomUUID } from "node:crypto";
import { afterAll, expect, it } from "vitest";
import { openPgPort } from "../../src/server/store/postgres/port.js";
import type { Stores } from "../../src/server/store/port.js";
import { ServiceStarter } from "../harness/service-starter.js";
import { postgresTool } from "../harness/postgres.js";
import { describeWithTool } from "../required-tool.js";
import { Api, json, preprocessingBody, referenceBlob, referenceJob, tokenFor } from "../service/service-harness.js";
import { useCluster } from "../store-pg/cluster.js";
import { registerPgApp } from "./pg-app.js";

/** Jobs queued on each side of the restart; the claim delay is judged on their median. */
const JOBS = 9;
/** Far below a poll's median delay (500 ms), far above a notified claim's (tens of ms). */
const PROMPT_MS = 150;
/** Long, so the runner polls for work only once a second (min(1000, lease / 3)). */
const LEASE_MS = 30_000;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

describeWithTool(postgresTool, "a replica claims jobs as they are announced", () => {
  const pgc = useCluster();
  const starter = new ServiceStarter("mdps-claim-notify-");
  afterAll(() => starter.cleanup());

  it("claims a job another process queued within tens of ms, before and after a PostgreSQL restart", async () => {
    const url = await pgc.fresh();
    const dataDir = await starter.tempDir();
    const replica = await starter.spawn({
      lease: { dataDir, leaseMs: LEASE_MS, workers: 1 },
      env: { MDPS_STORE: url },
    });
    const app = await registerPgApp(url);
    const api = new Api(replica, await tokenFor(replica, app), app.modelId);
    const blob = json(referenceBlob, await api.upload("a,b\n1,10\n2,20\n3,30\n"));
    // One job sent the ordinary way: the stored request the test's own jobs copy.
    const sent = json(
      referenceJob,
      await api.call("POST", "/api/ml/preprocessing/job/send", preprocessingBody(app.modelId, blob.id)),
    );
    expect((await api.waitForJob(sent.id)).status).toBe("succeeded");

    let store: Stores = await openPgPort({ url, region: "local" });
    const template = (await store.jobs.row(sent.id))!;
    const queueAndTime = async (): Promise<number> => {
      const id = randomUUID();
      await store.jobs.create({
        id,
        modelId: app.modelId,
        jobType: template.job_type,
        request: JSON.parse(template.request) as unknown,
        digest: template.request_digest,
        keyHolder: null,
      });
      const done = await api.waitForJob(id);
      expect(done.status).toBe("succeeded");
      const row = (await store.jobs.row(id))!;
      return Date.parse(row.started_at!) - Date.parse(row.created_at);
    };
    try {
      const before: number[] = [];
      for (let i = 0; i < JOBS; i++) before.push(await queueAndTime());

      await pgc.cluster().restart();
      // The replica answers again once its pool has found the server.
      const deadline = Date.now() + 30_000;
      while ((await api.call("GET", "/api/shared/health")).status !== 200) {
        if (Date.now() > deadline) throw new Error("the replica did not come back after the restart");
        await new Promise((r) => setTimeout(r, 100));
      }
      // This process's pool lost its connections too: a fresh one.
      await store.close();
      store = await openPgPort({ url, region: "local" });
      // Give the replica's feed its reconnect backoff (at most a few hundred ms after the first failures).
      await new Promise((r) => setTimeout(r, 2500));
      const after: number[] = [];
      for (let i = 0; i < JOBS; i++) after.push(await queueAndTime());

      console.log(`claim delay ms, before the restart: ${before.join(" ")}; after: ${after.join(" ")}`);
      expect(median(before), `before: ${before.join(" ")}`).toBeLessThanOrEqual(PROMPT_MS);
      expect(median(after), `after: ${after.join(" ")}`).toBeLessThanOrEqual(PROMPT_MS);
    } finally {
      await store.close();
    }
  }, 120_000);
});
