/**
 * Access tokens and portal sessions on replicas whose clocks disagree by 5 minutes either
 * way (faketime): each expires by the database server's clock. A token or session one
 * replica issued is accepted by every other for its whole lifetime, and refused by every
 * one once it has run out, never minutes early or late.
 */
import { randomUUID } from "node:crypto";
import { afterAll, expect, it } from "vitest";
import { openPgPort } from "../../src/server/store/postgres/port.js";
import { faketimePrefix, faketimeTool } from "../harness/faketime.js";
import { postgresTool } from "../harness/postgres.js";
import { ServiceStarter, type ServiceChild } from "../harness/service-starter.js";
import { describeWithTool } from "../required-tool.js";
import { Api, tokenFor } from "../service/service-harness.js";
import { useCluster } from "../store-pg/cluster.js";
import { registerPgApp } from "./pg-app.js";

/** Short enough to wait out, long enough to try a token on every replica first. */
const TTL_SECONDS = 8;

/** 404 for a live token (no such job), 401 for an expired one. */
async function answerTo(replica: ServiceChild, token: string, modelId: string): Promise<number> {
  return (await new Api(replica, token, modelId).call("GET", `/api/job/${randomUUID()}/get`)).status;
}

/** 200 for a live session, a redirect to the login page otherwise. The cookie is named per host and port. */
async function pageWith(replica: ServiceChild, session: string): Promise<number> {
  const cookie = `mdps_portal-127.0.0.1-${replica.port}=${session}`;
  return (await fetch(`${replica.url}/models`, { headers: { cookie }, redirect: "manual" })).status;
}

describeWithTool(postgresTool, "tokens and portal sessions on replicas 5 min apart", () => {
  describeWithTool(faketimeTool("+5m", 300_000), "with faketime", () => {
    const pgc = useCluster();
    const starter = new ServiceStarter("mdps-token-clock-");
    const started: ServiceChild[] = [];
    afterAll(async () => {
      // faketime forks node and does not pass signals on: each replica's whole process group is stopped.
      for (const r of started) {
        try {
          process.kill(-r.child.pid!, "SIGTERM");
        } catch {
          // gone already
        }
      }
      await Promise.all(started.map((r) => r.exited));
      await starter.cleanup();
    });

    it("are accepted everywhere while live and refused everywhere once expired, by the database's clock", async () => {
      const url = await pgc.fresh();
      const dataDir = await starter.tempDir();
      const serve = async (offset?: string) => {
        const replica = await starter.spawn({
          args: ["--data-dir", dataDir, "--token-ttl", String(TTL_SECONDS)],
          env: { MDPS_STORE: url },
          detached: true,
          ...(offset ? { prefix: faketimePrefix(offset) } : {}),
        });
        started.push(replica);
        return replica;
      };
      const replicas = await Promise.all([serve(), serve("+5m"), serve("-5m")]);
      const app = await registerPgApp(url);

      // One token from each replica, each tried on all three.
      const issuedAt = Date.now();
      const tokens = await Promise.all(replicas.map((r) => tokenFor(r, app)));
      const live = [];
      for (const token of tokens) for (const r of replicas) live.push(await answerTo(r, token, app.modelId));
      expect(Date.now() - issuedAt).toBeLessThan(TTL_SECONDS * 1000);
      expect(live).toEqual(Array(9).fill(404));

      // A portal session opened through the replica ahead, and one made with a short life.
      const store = await openPgPort({ url, region: "local" });
      let short: string;
      let loginToken: string;
      const shortAt = Date.now();
      try {
        loginToken = await store.portal.createLoginToken();
        short = await store.portal.createSession(TTL_SECONDS * 1000);
      } finally {
        await store.close();
      }
      const login = await fetch(`${replicas[1].url}/login?token=${loginToken}`, { redirect: "manual" });
      expect(login.status).toBe(303);
      const opened = /^mdps_portal-[^=]+=([^;]+)/.exec(login.headers.get("set-cookie") ?? "")?.[1];
      expect(opened).toBeDefined();
      for (const r of replicas) {
        expect(await pageWith(r, opened!)).toBe(200);
        expect(await pageWith(r, short)).toBe(200);
      }

      // Past the lifetime by the database's (this host's) clock: refused on every replica.
      await new Promise((done) => setTimeout(done, shortAt + TTL_SECONDS * 1000 + 1500 - Date.now()));
      const expired = [];
      for (const token of tokens) for (const r of replicas) expired.push(await answerTo(r, token, app.modelId));
      expect(expired).toEqual(Array(9).fill(401));
      for (const r of replicas) {
        expect(await pageWith(r, short)).not.toBe(200);
        expect(await pageWith(r, opened!)).toBe(200);
      }
    }, 120_000);
  });
});
