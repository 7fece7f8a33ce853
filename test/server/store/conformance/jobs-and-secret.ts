/** Jobs' records and the store's own secret, as every store keeps them. */
import { expect, it } from "vitest";
import { DuplicateJobError } from "../../../../src/server/domain/job-rows.js";
import { blobContent, jobInput as job, type StoreUnderTest } from "./store-under-test.js";

export function jobRecords(t: StoreUnderTest): void {
  it("refuses a second job with one id as a DuplicateJobError, and keeps the first", async () => {
    const { store } = t;
    const { model_id: modelId } = await store.apps.createModel("m");
    await store.jobs.create(job("7f6c0f3e-0000-4000-8000-000000000001", modelId));
    const second = await store.jobs.create(job("7f6c0f3e-0000-4000-8000-000000000001", modelId)).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(second).toBeInstanceOf(DuplicateJobError);
    expect((second as DuplicateJobError).jobId).toBe("7f6c0f3e-0000-4000-8000-000000000001");
    expect((await store.listings.jobs(modelId, { limit: 10 })).rows).toHaveLength(1);
  });

  it("answers a refused write as a rejected promise, never a synchronous throw", async () => {
    const { store } = t;
    const { model_id: modelId } = await store.apps.createModel("m");
    const id = "7f6c0f3e-0000-4000-8000-000000000002";
    await store.jobs.create(job(id, modelId));
    let call: Promise<unknown> | undefined;
    expect(() => (call = store.jobs.create(job(id, modelId)))).not.toThrow();
    await expect(call).rejects.toBeInstanceOf(DuplicateJobError);
  });

  it("ends a job with its outputs and last log lines all together, or writes nothing when its lease is gone", async () => {
    const { store } = t;
    const { model_id: modelId } = await store.apps.createModel("m");
    const content = blobContent({
      name: "out.csv",
      description: null,
      tags: [],
      size_bytes: 1,
      sha256: "1".repeat(64),
    });
    const container = { hostname: "h", replicaName: "r", processId: 1 };
    const ending = (jobId: string, owner: string, outputId: string) => ({
      jobId,
      status: "succeeded" as const,
      guard: { leaseOwner: owner, attempt: 1 },
      result: { ok: true },
      outputs: [{ id: outputId, modelId, content }],
      reports: {
        owner,
        entries: [{ kind: "log" as const, level: "info" as const, message: "done", container, at: "t" }],
      },
    });
    for (const id of ["7f6c0f3e-0000-4000-8000-00000000000a", "7f6c0f3e-0000-4000-8000-00000000000b"]) {
      await store.jobs.create(job(id, modelId));
      expect(
        await store.jobs.claim(id, { owner: "p1", expiresAt: Date.now() + 60_000 }, Date.now(), "claimed"),
      ).toBeDefined();
    }
    // Another process's lease: refused, and the output row written before the check is rolled back.
    expect(await store.endJob(ending("7f6c0f3e-0000-4000-8000-00000000000a", "p2", "o-refused"))).toBe(false);
    expect(await store.blobs.get(modelId, "o-refused")).toBeUndefined();
    expect((await store.jobs.row("7f6c0f3e-0000-4000-8000-00000000000a"))?.status).toBe("running");
    // Its own lease: the output, the terminal state and the log line, together.
    expect(await store.endJob(ending("7f6c0f3e-0000-4000-8000-00000000000b", "p1", "o-kept"))).toBe(true);
    expect(await store.blobs.get(modelId, "o-kept")).toMatchObject({ name: "out.csv", revision: 1 });
    const ended = (await store.jobs.row("7f6c0f3e-0000-4000-8000-00000000000b"))!;
    expect(ended.status).toBe("succeeded");
    expect((await store.jobs.logs(ended, 10)).messages.map((m) => m.message)).toContain("done");
    // Ended is ended: a second ending is refused.
    expect(await store.endJob(ending("7f6c0f3e-0000-4000-8000-00000000000b", "p1", "o-again"))).toBe(false);
    expect(await store.blobs.get(modelId, "o-again")).toBeUndefined();
  });

  it("keeps its instance secret from one opening to the next", async () => {
    const secret = await t.store.instanceSecret();
    expect(secret.length).toBeGreaterThanOrEqual(32);
    const again = await t.reopen();
    expect(await again.instanceSecret()).toBe(secret);
    await expect(again.ping()).resolves.toBeUndefined();
  });
}
