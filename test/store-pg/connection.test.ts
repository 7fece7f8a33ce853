/**
 * The connection: transactions that store calls join and that leave nothing when they
 * throw, a lost race (deadlock) run again, and faults answered as the service answers a
 * storage fault, never with the password of the URL in any form.
 */
import { inspect } from "node:util";
import { expect, it } from "vitest";
import { DuplicateJobError } from "../../src/server/domain/job-rows.js";
import { openPgDb } from "../../src/server/store/postgres/connection.js";
import { openPgStores, PgStorageFault, type PgStores } from "../../src/server/store/postgres/index.js";
import { freePort, postgresTool } from "../harness/postgres.js";
import { describeWithTool } from "../required-tool.js";
import { useCluster } from "./cluster.js";

/** Every way an error may reach a log: message, stack, util.inspect (with its cause), JSON. */
function everyRendering(err: unknown): string {
  return [String(err), (err as Error).stack ?? "", inspect(err, { depth: 10 }), JSON.stringify(err)].join("\n");
}

function expectNoSecret(err: unknown, password: string): void {
  const text = everyRendering(err);
  expect(text).not.toContain(password);
  expect(text).not.toContain(encodeURIComponent(password));
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error("expected a rejection");
}

describeWithTool(postgresTool, "the PostgreSQL connection", () => {
  const pgc = useCluster();

  it("rolls back everything a transaction's store calls wrote when it throws, and tells no listener", async () => {
    const store = await pgc.open(await pgc.fresh());
    let told = 0;
    store.jobs.onChange(() => told++);
    const err = await rejection(
      store.transaction(async () => {
        const { model_id } = await store.apps.createModel("m");
        await store.jobs.create({
          id: "j",
          modelId: model_id,
          jobType: "t",
          request: {},
          digest: "d",
          keyHolder: null,
        });
        expect(await store.jobs.row("j")).toBeDefined();
        throw new Error("changed my mind");
      }),
    );
    expect((err as Error).message).toBe("changed my mind");
    expect(await store.apps.listModels()).toEqual([]);
    expect(await store.jobs.row("j")).toBeUndefined();
    expect(told).toBe(0);
  });

  it("joins store calls to the transaction: others see its writes only once it commits", async () => {
    const url = await pgc.fresh();
    const [a, b] = [await pgc.open(url), await pgc.open(url)];
    let told = 0;
    a.jobs.onChange(() => told++);
    const id = await a.transaction(async () => {
      const { model_id } = await a.apps.createModel("m");
      await a.jobs.create({ id: "j", modelId: model_id, jobType: "t", request: {}, digest: "d", keyHolder: null });
      expect(await a.apps.modelExists(model_id)).toBe(true);
      expect(await b.apps.modelExists(model_id)).toBe(false);
      expect(told).toBe(0);
      return model_id;
    });
    expect(told).toBe(1);
    expect(await b.apps.modelExists(id)).toBe(true);
  });

  it("commits bookkeeping without waiting for its WAL flush, and everything else durably", async () => {
    const db = openPgDb(await pgc.fresh());
    try {
      const setting = async (name: string) => (await db.one<Record<string, string>>(`SHOW ${name}`))![name];
      expect(await setting("synchronous_commit")).toBe("on");
      expect(await setting("lock_timeout")).toBe("10s");
      expect(await db.transaction(() => setting("synchronous_commit"))).toBe("on");
      expect(await db.relaxed(() => setting("synchronous_commit"))).toBe("off");
      expect(await db.tick(() => Promise.all([setting("synchronous_commit"), setting("lock_timeout")]))).toEqual([
        "off",
        "100ms",
      ]);
      // Joined, a relaxed write commits as durably as the transaction it is part of.
      expect(await db.transaction(() => db.relaxed(() => setting("synchronous_commit")))).toBe("on");
      // SET LOCAL ends with its transaction: the pooled connection is back to durable.
      expect(await setting("synchronous_commit")).toBe("on");
    } finally {
      await db.close();
    }
  });

  it("undoes only a nested transaction that throws (a savepoint), so a duplicate job inside a transaction spoils nothing", async () => {
    const store = await pgc.open(await pgc.fresh());
    let told = 0;
    store.jobs.onChange(() => told++);
    const names = await store.transaction(async () => {
      const { model_id } = await store.apps.createModel("kept");
      const job = { id: "j", modelId: model_id, jobType: "t", request: {}, digest: "d", keyHolder: null };
      await store.jobs.create(job);
      expect(await rejection(store.jobs.create(job))).toBeInstanceOf(DuplicateJobError);
      expect(
        await rejection(
          store.transaction(async () => {
            await store.apps.createModel("inner");
            await store.jobs.cancel("j", "undone with the savepoint");
            throw new Error("inner only");
          }),
        ),
      ).toMatchObject({ message: "inner only" });
      return (await store.apps.listModels()).map((m) => m.name);
    });
    expect(names).toEqual(["kept"]);
    expect((await store.apps.listModels()).map((m) => m.name)).toEqual(["kept"]);
    expect(await store.jobs.row("j")).toMatchObject({ status: "queued" });
    // The create was told; the cancel, undone with its savepoint, was not.
    expect(told).toBe(1);
  });

  it("runs a call a transaction left running past its end on its own, not in the next transaction on that connection", async () => {
    const store = await pgc.open(await pgc.fresh());
    let stray: Promise<unknown> | undefined;
    await store.transaction(async () => {
      await store.apps.createModel("inside");
      stray = new Promise((r) => setTimeout(r, 100)).then(() => store.apps.createModel("stray"));
    });
    // The next transaction takes the connection back from the pool, and rolls back while the stray call runs.
    const err = await rejection(
      store.transaction(async () => {
        await store.apps.createModel("rolled back");
        await new Promise((r) => setTimeout(r, 300));
        throw new Error("undo");
      }),
    );
    expect((err as Error).message).toBe("undo");
    await stray;
    expect((await store.apps.listModels()).map((m) => m.name).sort()).toEqual(["inside", "stray"]);
  });

  it("runs again the transaction a deadlock chose as its victim, so both sides commit", async () => {
    const url = await pgc.fresh();
    const [a, b] = [await pgc.open(url), await pgc.open(url)];
    const { model_id } = await a.apps.createModel("m");
    for (const id of ["j1", "j2"])
      await a.jobs.create({ id, modelId: model_id, jobType: "t", request: {}, digest: "d", keyHolder: null });
    let runs = 0;
    const crossing = (store: PgStores, first: string, second: string) =>
      store.transaction(async () => {
        runs++;
        await store.jobs.row(first, { lock: true });
        await new Promise((r) => setTimeout(r, 200));
        await store.jobs.row(second, { lock: true });
        return first;
      });
    expect(await Promise.all([crossing(a, "j1", "j2"), crossing(b, "j2", "j1")])).toEqual(["j1", "j2"]);
    // One run lost to the deadlock and ran again (on a loaded machine the rerun can meet the other side once more).
    expect(runs).toBeGreaterThanOrEqual(3);
  });

  it("answers an unreachable server as storage_unavailable with a retry, without the password", async () => {
    const cluster = pgc.cluster();
    const port = await freePort();
    const url = cluster.url.replace(`:${cluster.port}/`, `:${port}/`);
    const err = await rejection(openPgStores({ url }));
    expect(err).toBeInstanceOf(PgStorageFault);
    expect(err).toMatchObject({
      kind: "unavailable",
      code: "storage_unavailable",
      retryAfterSeconds: 5,
      sqlState: "ECONNREFUSED",
    });
    expect((err as Error).cause).toBeUndefined();
    expectNoSecret(err, cluster.password);
  });

  it("never shows a password in a refused login or a malformed URL", async () => {
    const cluster = pgc.cluster();
    const wrong = "not-the-password-5ecret";
    const refused = await rejection(
      openPgStores({ url: cluster.url.replace(encodeURIComponent(cluster.password), wrong) }),
    );
    expect((refused as Error).message).toMatch(/password authentication failed/);
    expectNoSecret(refused, wrong);
    const malformed = await rejection(openPgStores({ url: `postgres://mdps:${wrong}@127.0.0.1:notaport/x` }));
    expect((malformed as Error).message).toMatch(/not a valid URL/);
    expectNoSecret(malformed, wrong);
  });

  it("answers a session the server ended mid-transaction (57P01) as storage_unavailable, and recovers after", async () => {
    const cluster = pgc.cluster();
    const url = await pgc.fresh();
    const store = await pgc.open(url);
    const database = new URL(url).pathname.slice(1);
    const err = await rejection(
      store.transaction(async () => {
        await store.apps.createModel("lost");
        await cluster.adminQuery(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND state = 'idle in transaction'",
          [database],
        );
        await store.apps.listModels();
      }),
    );
    expect(err).toMatchObject({ kind: "unavailable", code: "storage_unavailable" });
    expectNoSecret(err, cluster.password);
    await store.ping();
    expect(await store.apps.listModels()).toEqual([]);
  });
});
