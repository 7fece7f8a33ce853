/**
 * The job change feed (src/server/store/postgres/change-feed.ts) on a real cluster: two
 * stores on one database stand for two replicas. Each hears the other's job changes with
 * what changed, never its own twice, keeps hearing them after the server restarts (and
 * says once that anything may have changed meanwhile), and stops when closed.
 */
import { expect, it } from "vitest";
import type { JobChange } from "../../src/server/store/port.js";
import { changeOf } from "../../src/server/store/postgres/change-feed.js";
import { postgresTool } from "../harness/postgres.js";
import { describeWithTool } from "../required-tool.js";
import { useCluster } from "./cluster.js";

type Heard = JobChange | "anything";

/** Collects what a store's listeners are told. */
function listen(store: { jobs: { onChange(l: (c?: JobChange) => void): void } }): Heard[] {
  const heard: Heard[] = [];
  store.jobs.onChange((change) => heard.push(change ?? "anything"));
  return heard;
}

async function until(what: string, ok: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describeWithTool(postgresTool, "PostgreSQL job change feed", () => {
  const pgc = useCluster();
  const job = (id: string, modelId: string) => ({
    id,
    modelId,
    jobType: "t",
    request: {},
    digest: "d",
    keyHolder: null,
  });

  it("a replica hears another's job changes as they commit, with status and revision; its own only once, locally", async () => {
    const url = await pgc.fresh();
    const a = await pgc.open(url);
    const b = await pgc.open(url);
    const heardByA = listen(a);
    const heardByB = listen(b);
    const { model_id } = await a.apps.createModel("m");
    const created = await a.jobs.create(job("j1", model_id));
    await until("b hears the new job", () => heardByB.length > 0);
    expect(heardByB).toEqual([{ id: "j1", status: "queued", revision: created.revision, elsewhere: true }]);
    // Not told before its commit: a transaction that rolls back is never announced.
    await expect(
      b.transaction(async () => {
        await b.jobs.cancel("j1", "undone");
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    const cancelled = await b.jobs.cancel("j1", "by b");
    await until("a hears the cancel", () => heardByA.some((h) => h !== "anything" && h.elsewhere));
    expect(heardByA).toEqual([
      { id: "j1", status: "queued", revision: 1, elsewhere: false },
      { id: "j1", status: "cancelled", revision: cancelled!.row.revision, elsewhere: true },
    ]);
    // b's own cancel reached b once, from itself (elsewhere: false), not again from the feed.
    await new Promise((r) => setTimeout(r, 200));
    expect(heardByB.filter((h) => h !== "anything" && h.status === "cancelled")).toEqual([
      { id: "j1", status: "cancelled", revision: cancelled!.row.revision, elsewhere: false },
    ]);
  });

  it("keeps hearing after PostgreSQL restarts: says once that anything may have changed, then hears changes again", async () => {
    const url = await pgc.fresh();
    const a = await pgc.open(url);
    const b = await pgc.open(url);
    const heardByB = listen(b);
    const { model_id } = await a.apps.createModel("m");
    await a.jobs.create(job("before", model_id));
    await until("b hears the first job", () => heardByB.length === 1);
    await pgc.cluster().restart("immediate");
    await until("b's feed is back", () => heardByB.includes("anything"), 20_000);
    // The writer's pool finds the server again on its own (a first call may meet the dropped connection).
    for (let tries = 0; ; tries++) {
      try {
        await a.jobs.create(job("after", model_id));
        break;
      } catch (err) {
        if (tries > 20) throw err;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    await until("b hears the job sent after the restart", () =>
      heardByB.some((h) => h !== "anything" && h.id === "after"),
    );
    expect(heardByB.filter((h) => h !== "anything" && h.id === "after")).toEqual([
      { id: "after", status: "queued", revision: 1, elsewhere: true },
    ]);
  }, 60_000);

  it("reads only well-formed payloads of other processes", () => {
    const payload = (p: object) => JSON.stringify(p);
    expect(changeOf(payload({ id: "j", status: "running", revision: 3, from: "x" }), "me")).toEqual({
      id: "j",
      status: "running",
      revision: 3,
      elsewhere: true,
    });
    expect(changeOf(payload({ id: "j", status: "running", revision: 3, from: "me" }), "me")).toBeUndefined();
    expect(changeOf(payload({ id: "j", status: "exploded", revision: 3, from: "x" }), "me")).toBeUndefined();
    expect(changeOf(payload({ id: "j", status: "queued", revision: "3", from: "x" }), "me")).toBeUndefined();
    expect(changeOf("not json", "me")).toBeUndefined();
    expect(changeOf(undefined, "me")).toBeUndefined();
  });
});
