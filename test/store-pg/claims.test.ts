/**
 * Claims across replicas (each a store with its own pool, as two `mdps serve` processes
 * are): every job is taken exactly once however the claimers race, a lease that runs
 * out lets another replica take the job, and the attempt that lost it can no longer
 * write (the fence: lease owner and attempt number). Process liveness by session lock.
 */
import { expect, it } from "vitest";
import type { PgStores } from "../../src/server/store/postgres/index.js";
import { postgresTool } from "../harness/postgres.js";
import { describeWithTool } from "../required-tool.js";
import { useCluster } from "./cluster.js";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describeWithTool(postgresTool, "claims on PostgreSQL", () => {
  const pgc = useCluster();

  async function replicasWithJobs(count: number): Promise<{ replicas: PgStores[]; ids: string[] }> {
    const url = await pgc.fresh();
    const replicas = [await pgc.open(url), await pgc.open(url)];
    const { model_id } = await replicas[0]!.apps.createModel("m");
    const ids = Array.from({ length: count }, (_, i) => `job-${String(i).padStart(3, "0")}`);
    for (const id of ids)
      await replicas[0]!.jobs.create({
        id,
        modelId: model_id,
        jobType: "t",
        request: {},
        digest: "d",
        keyHolder: null,
      });
    return { replicas, ids };
  }

  async function expectEachClaimedOnce(store: PgStores, ids: string[], claimed: string[][]): Promise<void> {
    expect(claimed.flat().sort()).toEqual(ids);
    for (const id of ids) {
      const row = (await store.jobs.row(id))!;
      expect(row.attempts, id).toBe(1);
      const events = (await store.jobs.record(row, 100)).events!;
      expect(
        events.filter((e) => e.status === "running"),
        id,
      ).toHaveLength(1);
    }
  }

  it("gives each of 50 queued jobs to exactly one of two replicas claiming the oldest (SKIP LOCKED)", async () => {
    const { replicas, ids } = await replicasWithJobs(50);
    const claimed = await Promise.all(
      replicas.map(async (store, r) => {
        const mine: string[] = [];
        for (;;) {
          const now = Date.now();
          const row = await store.jobs.claimNext({ owner: `replica-${r}`, expiresAt: now + 60_000 }, now, `by ${r}`);
          if (!row) return mine;
          mine.push(row.id);
        }
      }),
    );
    // Both replicas did some of the work: the race was real.
    for (const mine of claimed) expect(mine.length).toBeGreaterThan(0);
    await expectEachClaimedOnce(replicas[0]!, ids, claimed);
  });

  it("gives each of 50 queued jobs to exactly one of two replicas claiming from the same candidate lists", async () => {
    const { replicas, ids } = await replicasWithJobs(50);
    let tries = 0;
    const claimed = await Promise.all(
      replicas.map(async (store, r) => {
        const mine: string[] = [];
        for (;;) {
          const now = Date.now();
          const candidates = await store.jobs.claimable(now, 10);
          if (candidates.length === 0) return mine;
          for (const c of candidates) {
            tries++;
            const row = await store.jobs.claim(
              c.id,
              { owner: `replica-${r}`, expiresAt: now + 60_000 },
              now,
              `by ${r}`,
            );
            if (row) mine.push(row.id);
          }
        }
      }),
    );
    // Some jobs were tried by both replicas (the race was real) and went to one of them.
    expect(tries).toBeGreaterThan(ids.length);
    await expectEachClaimedOnce(replicas[0]!, ids, claimed);
  });

  it("skips a job whose row another replica has locked instead of waiting for it", async () => {
    const { replicas } = await replicasWithJobs(1);
    const [a, b] = replicas as [PgStores, PgStores];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const holder = a.transaction(async () => {
      await a.jobs.row("job-000", { lock: true });
      locked();
      await held;
    });
    await isLocked;
    const started = Date.now();
    const now = Date.now();
    expect(await b.jobs.claim("job-000", { owner: "b", expiresAt: now + 60_000 }, now, "b")).toBeUndefined();
    expect(await b.jobs.claimNext({ owner: "b", expiresAt: now + 60_000 }, now, "b")).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(2_000);
    release();
    await holder;
    expect(await b.jobs.claim("job-000", { owner: "b", expiresAt: now + 60_000 }, Date.now(), "b")).toBeDefined();
  });

  it("lets another replica take a job whose lease expired, and refuses every later write of the first attempt", async () => {
    const { replicas } = await replicasWithJobs(1);
    const [a, b] = replicas as [PgStores, PgStores];
    const id = "job-000";
    // Times are the callers' (a replica's clock), so the test steps them instead of sleeping.
    // The store moves each onto the database's clock (by its distance from the caller's now),
    // which costs a round trip's jitter: the steps are far wider than that.
    const t0 = Date.now();
    const first = (await a.jobs.claim(id, { owner: "a", expiresAt: t0 + 1000 }, t0, "a"))!;
    expect(first.attempts).toBe(1);
    // Before it expires the lease holds.
    expect(await b.jobs.claim(id, { owner: "b", expiresAt: t0 + 60_000 }, t0 + 500, "b")).toBeUndefined();
    expect(await b.jobs.claimable(t0 + 500, 10)).toEqual([]);
    const later = t0 + 1500;
    expect((await b.jobs.claimable(later, 10)).map((c) => [c.id, c.status, c.lease_owner])).toEqual([
      [id, "running", "a"],
    ]);
    const second = (await b.jobs.claim(id, { owner: "b", expiresAt: later + 60_000 }, later, "b"))!;
    expect(second).toMatchObject({ lease_owner: "b", attempts: 2 });

    // The first attempt wakes up: its lease renewal, progress and ending are all refused.
    expect(await a.jobs.renewLeases("a", later + 60_000, [id])).toBe(0);
    await a.jobs.progress(id, "a", "stale", 0.9);
    expect(await a.jobs.finish(id, "succeeded", { result: "stale" }, { leaseOwner: "a", attempt: 1 })).toBe(false);
    expect(await a.jobs.finish(id, "succeeded", { result: "stale" }, { leaseOwner: "a" })).toBe(false);
    expect(await a.jobs.finish(id, "failed", {}, { unleasedAt: later })).toBe(false);
    expect(await a.jobs.row(id)).toMatchObject({ status: "running", phase: "reading", lease_owner: "b", result: null });

    expect(await b.jobs.finish(id, "succeeded", { result: "fresh" }, { leaseOwner: "b", attempt: 2 })).toBe(true);
    expect(await a.jobs.row(id)).toMatchObject({ status: "succeeded", result: '"fresh"' });
  });

  it("fences by attempt: an owner that got the job back refuses the ending of its own earlier attempt", async () => {
    const { replicas } = await replicasWithJobs(1);
    const [a, b] = replicas as [PgStores, PgStores];
    const id = "job-000";
    const t0 = Date.now();
    await a.jobs.claim(id, { owner: "a", expiresAt: t0 + 50 }, t0, "a1");
    expect(await b.jobs.claim(id, { owner: "b", expiresAt: t0 + 60_000 }, t0 + 1000, "b")).toBeDefined();
    expect(await b.jobs.requeue(id, "b", "stopping")).toBe(true);
    const again = (await a.jobs.claim(id, { owner: "a", expiresAt: Date.now() + 60_000 }, Date.now(), "a3"))!;
    expect(again.attempts).toBe(3);
    expect(await a.jobs.finish(id, "succeeded", { result: 1 }, { leaseOwner: "a", attempt: 1 })).toBe(false);
    expect(await a.jobs.finish(id, "succeeded", { result: 3 }, { leaseOwner: "a", attempt: 3 })).toBe(true);
  });

  it("tells a replica when the server ends its lock's session (nothing when it unregisters), and takes the lock again", async () => {
    const url = await pgc.fresh();
    const store = await pgc.open(url);
    const lost: string[] = [];
    store.processes.onLockLost((owner) => lost.push(owner));
    await store.processes.register({ ownerId: "owner-a", hostname: "h", processId: 1 }, Date.now());
    await store.processes.register({ ownerId: "owner-b", hostname: "h", processId: 2 }, Date.now());
    await store.processes.unregister("owner-b");
    await pgc.cluster().adminQuery(
      `SELECT pg_terminate_backend(l.pid) FROM pg_locks l WHERE l.locktype = 'advisory' AND l.objsubid = 2 AND l.granted
           AND l.database = (SELECT oid FROM pg_database WHERE datname = $1)`,
      [new URL(url).pathname.slice(1)],
    );
    const deadline = Date.now() + 10_000;
    while (lost.length === 0 && Date.now() < deadline) await sleep(20);
    expect(lost).toEqual(["owner-a"]);
    // Not dead: a session ended by the server (a restart) is not a process that died. The
    // registry takes the lock again within a second or so, and the others never see it dead.
    expect(await store.processes.deadOnThisHost()).toEqual([]);
    const back = Date.now() + 10_000;
    const held = async () =>
      (
        await pgc
          .cluster()
          .adminQuery(
            "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 2 AND granted AND database = (SELECT oid FROM pg_database WHERE datname = $1)",
            [new URL(url).pathname.slice(1)],
          )
      ).rows[0] as { n: number };
    while ((await held()).n === 0 && Date.now() < back) await sleep(50);
    expect((await held()).n).toBe(1);
    expect(await store.processes.isAlive("owner-a", Date.now(), 30_000)).toBe(true);
    expect(await store.processes.deadOnThisHost()).toEqual([]);
    await store.processes.unregister("owner-a");
  });

  it("knows a replica alive while its session lock is held, and certainly dead once its store closes", async () => {
    const url = await pgc.fresh();
    const a = await pgc.open(url);
    const b = await pgc.open(url);
    const now = Date.now();
    await a.processes.register({ ownerId: "owner-a", hostname: "host-a", processId: 1 }, now);
    await b.processes.register({ ownerId: "owner-b", hostname: "host-b", processId: 2 }, now);
    expect(await b.processes.isAlive("owner-a", now, 30_000)).toBe(true);
    expect(await b.processes.alive(now, 30_000)).toEqual(new Set(["owner-a", "owner-b"]));
    // A stale heartbeat is not alive, but not certainly dead: its lock is still held.
    expect(await b.processes.isAlive("owner-a", now + 60_000, 30_000)).toBe(false);
    expect(await b.processes.deadOnThisHost()).toEqual([]);

    // owner-a's process goes (its lock connection closes with its store).
    const { model_id } = await a.apps.createModel("m");
    await a.jobs.create({ id: "j", modelId: model_id, jobType: "t", request: {}, digest: "d", keyHolder: null });
    await a.jobs.claim("j", { owner: "owner-a", expiresAt: now + 600_000 }, now, "a");
    await a.close();
    // The server drops the lock as the session's backend exits, a moment after the socket closes.
    const deadline = Date.now() + 10_000;
    while ((await b.processes.deadOnThisHost()).length === 0 && Date.now() < deadline) await sleep(20);
    expect(await b.processes.deadOnThisHost()).toEqual(["owner-a"]);
    expect(await b.processes.isAlive("owner-a", Date.now(), 30_000)).toBe(false);
    // Its job need not wait for its lease.
    const dead = await b.jobs.claimable(Date.now(), 10, ["owner-a"]);
    expect(dead.map((c) => c.id)).toEqual(["j"]);
    expect(
      await b.jobs.claim("j", { owner: "owner-b", expiresAt: Date.now() + 60_000 }, Date.now(), "b", "owner-a"),
    ).toMatchObject({
      lease_owner: "owner-b",
    });
    await b.processes.forgetDead(Date.now() + 1, 0);
    expect(await b.processes.alive(Date.now(), 30_000)).toEqual(new Set(["owner-b"]));
    await b.processes.unregister("owner-b");
  });
});
