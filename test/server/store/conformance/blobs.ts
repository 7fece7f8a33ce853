/** Blob records, their damage, listings, usage and pruning, as every store keeps them. */
import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { decodeListCursor } from "../../../../src/server/domain/listing.js";
import { blobContent as content, jobInput, type StoreUnderTest } from "./store-under-test.js";

export function blobRecords(t: StoreUnderTest): void {
  it("answers records, not columns: a blob's tags as a list, `encrypted` as a boolean, '' and null descriptions apart", async () => {
    const { store } = t;
    const { model_id } = await store.apps.createModel("m");
    const now = new Date().toISOString();
    for (const [id, description] of [
      ["b-empty", ""],
      ["b-null", null],
    ] as const) {
      const row = await store.blobs.insert(id, model_id, 1, content({ description, size_bytes: 2 ** 40 }), now);
      expect(row).toMatchObject({ id, description, size_bytes: 2 ** 40, tags: ["t"], encrypted: false });
      expect(await store.blobs.get(model_id, id)).toEqual(row);
    }
    const listed = await store.listings.blobs(model_id, { limit: 5, tag: "t" });
    expect(listed.rows.map((b) => [b.id, b.tags, b.encrypted])).toEqual([
      ["b-null", ["t"], false],
      ["b-empty", ["t"], false],
    ]);
  });

  it("replaces a blob only from its current revision, and answers its files", async () => {
    const { store } = t;
    // Blob ids are UUIDs: only such an id names a file (a tampered "../x" never does).
    const b1 = randomUUID();
    const { model_id } = await store.apps.createModel("m");
    const first = await store.blobs.insert(b1, model_id, 1, content(), new Date().toISOString());
    expect(await store.blobs.get("other-model", b1)).toBeUndefined();
    const second = await store.blobs.replace(
      first,
      content({ name: "b.csv", tags: ["x", "y"] }),
      new Date().toISOString(),
    );
    expect(second).toMatchObject({ revision: 2, name: "b.csv", tags: ["x", "y"] });
    expect(await store.blobs.replace(first, content(), new Date().toISOString())).toBeUndefined();
    expect(await store.blobs.revision(b1)).toBe(2);
    expect(await store.blobs.isReferenced(`${b1}.2`)).toBe(true);
    expect(await store.blobs.isReferenced(`${b1}.1`)).toBe(false);
    expect(await store.blobs.isReferenced(`${b1}.99999999999999999999`)).toBe(false);
    expect(await store.blobs.referencedFiles()).toEqual(new Set([`${b1}.2`]));
    expect(await store.blobs.everyFile()).toEqual([
      { id: b1, model_id, name: "b.csv", revision: 2, size_bytes: 3, sha256: "ab".repeat(32) },
    ]);
    await store.blobs.delete(second!);
    expect(await store.blobs.revision(b1)).toBeUndefined();
    expect(await store.blobs.revision("gone")).toBeUndefined();
  });

  it("remembers damage for the blob's current revision only, and forgets it when cleared", async () => {
    const { store } = t;
    const { model_id } = await store.apps.createModel("m");
    const row = await store.blobs.insert("b1", model_id, 1, content(), new Date().toISOString());
    await store.damage.record({ blobId: "b1", revision: 1, reason: "its sha256 differs" });
    expect((await store.damage.list()).map((d) => [d.blob_id, d.reason])).toEqual([["b1", "its sha256 differs"]]);
    await store.blobs.replace(row, content(), new Date().toISOString());
    expect(await store.blobs.revision("b1")).toBe(2);
    expect(await store.damage.list()).toEqual([]);
    await store.damage.record({ blobId: "b1", revision: 1, reason: "an old revision" });
    expect(await store.damage.list()).toEqual([]);
    await store.damage.record({ blobId: "b1", revision: 2, reason: "missing" });
    await store.damage.clear("b1", 2);
    expect(await store.damage.list()).toEqual([]);
  });

  it("pages a model's blobs newest first, with cursors that neither repeat nor skip, and filters by tag", async () => {
    const { store } = t;
    const { model_id } = await store.apps.createModel("m");
    const sameMoment = new Date().toISOString();
    for (let i = 0; i < 5; i++)
      await store.blobs.insert(`b${i}`, model_id, 1, content({ tags: i % 2 === 0 ? ["even"] : ["odd"] }), sameMoment);
    const seen: string[] = [];
    let cursor: ReturnType<typeof decodeListCursor>;
    for (;;) {
      const page = await store.listings.blobs(model_id, { limit: 2, cursor });
      seen.push(...page.rows.map((r) => r.id));
      if (!page.next_cursor) break;
      cursor = decodeListCursor(page.next_cursor);
    }
    expect(seen).toEqual(["b4", "b3", "b2", "b1", "b0"]);
    const even = await store.listings.blobs(model_id, { limit: 10, tag: "even" });
    expect(even.rows.map((r) => r.id)).toEqual(["b4", "b2", "b0"]);
    expect((await store.listings.blobs(model_id, { limit: 10, name: "nope" })).rows).toEqual([]);
    expect(await store.usage("odd")).toMatchObject({
      blobs: 5,
      blobBytes: 15,
      tagged: { tag: "odd", blobs: 2, bytes: 6 },
    });
  });

  it("prunes old blobs and finished jobs but keeps the input of an unfinished job", async () => {
    const { store } = t;
    const { model_id } = await store.apps.createModel("m");
    const old = "2020-01-01T00:00:00.000Z";
    await store.blobs.insert("pinned", model_id, 1, content(), old);
    await store.blobs.insert("free", model_id, 1, content(), old);
    await store.jobs.create({ ...jobInput("j1", model_id), request: { input_blob_id: "pinned" } });
    const dry = await store.prune({ before: new Date().toISOString(), dryRun: true });
    expect(dry).toMatchObject({ blobs: [{ id: "free", revision: 1 }], pinned: 1, jobs: 0 });
    expect(await store.blobs.revision("free")).toBe(1);
    await store.prune({ before: new Date().toISOString() });
    expect(await store.blobs.revision("free")).toBeUndefined();
    expect(await store.blobs.revision("pinned")).toBe(1);
  });
}
