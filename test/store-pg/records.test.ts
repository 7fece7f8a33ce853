import { randomUUID } from "node:crypto";
/**
 * Models, applications, tokens, blobs, damage, listings, portal nonces, usage and prune on
 * PostgreSQL: round trips, the guards the SQLite store keeps, and records that read the
 * same from both stores (the blob's record compared field by field with SQLite's).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { AdminError } from "../../src/server/domain/admin-error.js";
import { consumeNonce } from "../../src/server/portal/one-time-forms.js";
import { toBlobRecord, type BlobContent } from "../../src/server/domain/blobs.js";
import { openSqliteStores } from "../../src/server/store/sqlite/index.js";
import { decodeListCursor } from "../../src/server/domain/listing.js";
import { postgresTool } from "../harness/postgres.js";
import { describeWithTool } from "../required-tool.js";
import { useCluster } from "./cluster.js";

const content = (over: Partial<BlobContent> = {}): BlobContent => ({
  name: "a.csv",
  description: "",
  record_type: "csv",
  access_tier: "hot",
  tags: ["t"],
  content_type: "text/csv",
  size_bytes: 3,
  sha256: "ab".repeat(32),
  encrypted: false,
  ...over,
});

describeWithTool(postgresTool, "the PostgreSQL store's records", () => {
  const pgc = useCluster();

  it("keeps models and applications; deleting an application revokes its tokens", async () => {
    const store = await pgc.open(await pgc.fresh());
    const { model_id } = await store.apps.createModel("m");
    await expect(store.apps.addApp({ modelId: "nope", name: "a", scopes: ["shared.blob.read"] })).rejects.toThrow(
      AdminError,
    );
    await expect(store.apps.addApp({ modelId: model_id, name: "a", scopes: ["no.such"] })).rejects.toThrow(
      /unknown scope/,
    );
    const app = await store.apps.addApp({
      modelId: model_id,
      name: "a",
      scopes: ["shared.blob.read shared.blob.read"],
    });
    const row = await store.apps.application(app.client_id);
    expect(row).toMatchObject({ client_id: app.client_id, model_id, name: "a", scopes: "shared.blob.read" });
    const listed = await store.apps.listModels();
    expect(listed).toEqual([
      {
        model_id,
        name: "m",
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) as unknown,
        applications: [{ client_id: app.client_id, name: "a", scopes: ["shared.blob.read"] }],
      },
    ]);
    const regenerated = await store.apps.regenerateSecret(app.client_id);
    expect(regenerated.client_secret).not.toBe(app.client_secret);
    expect((await store.apps.application(app.client_id))!.secret_hash).not.toBe(row!.secret_hash);

    const token = await store.tokens.issue({
      clientId: app.client_id,
      modelId: model_id,
      scopes: ["shared.blob.read"],
      ttlSeconds: 60,
    });
    expect(await store.tokens.verify(token)).toMatchObject({
      clientId: app.client_id,
      modelId: model_id,
      scopes: ["shared.blob.read"],
    });
    await store.apps.deleteApp(app.client_id);
    expect(await store.tokens.verify(token)).toBeUndefined();
    await expect(store.apps.deleteApp(app.client_id)).rejects.toThrow(AdminError);
  });

  it("accepts a token only in its region and only while it lives", async () => {
    const url = await pgc.fresh();
    const store = await pgc.open(url, "eu");
    const elsewhere = await pgc.open(url, "us");
    const { model_id } = await store.apps.createModel("m");
    const app = await store.apps.addApp({ modelId: model_id, name: "a", scopes: ["shared.blob.read"] });
    const grant = { clientId: app.client_id, modelId: model_id, scopes: ["shared.blob.read"] };
    const live = await store.tokens.issue({ ...grant, ttlSeconds: 60 });
    const verified = await store.tokens.verify(live);
    expect(typeof verified!.expiresAt).toBe("number");
    expect(verified!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(await elsewhere.tokens.verify(live)).toBeUndefined();
    const dead = await store.tokens.issue({ ...grant, ttlSeconds: 0 });
    expect(await store.tokens.verify(dead)).toBeUndefined();
    expect(await store.tokens.purgeExpired()).toBe(1);
    expect(await store.tokens.verify(live)).toBeDefined();
  });

  it("reads a blob's record exactly as the SQLite store does, keeping '' and null descriptions apart", async () => {
    const store = await pgc.open(await pgc.fresh());
    const dir = mkdtempSync(join(tmpdir(), "mdps-pg-parity-"));
    const sqlite = openSqliteStores({ dataDir: dir, region: "local" });
    try {
      const pgModel = (await store.apps.createModel("m")).model_id;
      const sqliteModel = sqlite.apps.createModel("m").model_id;
      const now = new Date().toISOString();
      for (const [id, description] of [
        ["b-empty", ""],
        ["b-null", null],
      ] as const) {
        const fromPg = await store.blobs.insert(
          id,
          pgModel,
          1,
          content({ description, size_bytes: 2 ** 40, encrypted: true }),
          now,
        );
        const fromSqlite = sqlite.blobs.insert(
          id,
          sqliteModel,
          1,
          content({ description, size_bytes: 2 ** 40, encrypted: true }),
          now,
        );
        expect({ ...fromPg, model_id: "" }).toEqual({ ...fromSqlite, model_id: "" });
        expect(fromPg.description).toBe(description);
        expect(toBlobRecord((await store.blobs.get(pgModel, id))!)).toEqual({
          ...toBlobRecord(sqlite.blobs.get(sqliteModel, id)!),
          model_id: pgModel,
        });
      }
    } finally {
      sqlite.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("replaces a blob only from its current revision, and answers its files", async () => {
    const store = await pgc.open(await pgc.fresh());
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
    await store.damage.record({ blobId: b1, revision: 2, reason: "sha256 differs" });
    await store.damage.record({ blobId: b1, revision: 1, reason: "old revision" });
    expect((await store.damage.list()).map((d) => [d.blob_id, d.reason])).toEqual([[b1, "sha256 differs"]]);
    await store.damage.clear(b1, 2);
    expect(await store.damage.list()).toEqual([]);
    await store.blobs.delete(second!);
    expect(await store.blobs.revision(b1)).toBeUndefined();
  });

  it("never fails the caller's transaction when remembering damage fails", async () => {
    const store = await pgc.open(await pgc.fresh());
    const { model_id } = await store.apps.createModel("m");
    const kept = await store.transaction(async () => {
      await store.blobs.insert("b1", model_id, 1, content(), new Date().toISOString());
      // A reason PostgreSQL refuses (a NUL byte in text): the insert fails, the caller goes on.
      await store.damage.record({ blobId: "b1", revision: 1, reason: "bad\u0000reason" });
      return store.blobs.revision("b1");
    });
    expect(kept).toBe(1);
    expect(await store.blobs.revision("b1")).toBe(1);
    expect(await store.damage.list()).toEqual([]);
  });

  it("pages a model's blobs newest first, with cursors that neither repeat nor skip, and filters by tag", async () => {
    const store = await pgc.open(await pgc.fresh());
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
    const store = await pgc.open(await pgc.fresh());
    const { model_id } = await store.apps.createModel("m");
    const old = "2020-01-01T00:00:00.000Z";
    await store.blobs.insert("pinned", model_id, 1, content(), old);
    await store.blobs.insert("free", model_id, 1, content(), old);
    await store.jobs.create({
      id: "j1",
      modelId: model_id,
      jobType: "preprocessing",
      request: { input_blob_id: "pinned" },
      digest: "d",
      keyHolder: null,
    });
    const dry = await store.prune({ before: new Date().toISOString(), dryRun: true });
    expect(dry).toMatchObject({ blobs: [{ id: "free", revision: 1 }], pinned: 1, jobs: 0 });
    expect(await store.blobs.revision("free")).toBe(1);
    await store.prune({ before: new Date().toISOString() });
    expect(await store.blobs.revision("free")).toBeUndefined();
    expect(await store.blobs.revision("pinned")).toBe(1);
  });

  it("lets exactly one of two replicas consume a form nonce, and none when the action throws", async () => {
    const url = await pgc.fresh();
    const [a, b] = [await pgc.open(url), await pgc.open(url)];
    const nonce = await a.portal.issueNonce("regenerate", "client-1");
    const form = { nonce, action: "regenerate", target: "client-1" };
    expect(await b.portal.nonceState(nonce, "regenerate", "client-1")).toEqual({ kind: "fresh" });
    await expect(consumeNonce(a.portal, form, () => Promise.reject(new Error("bad input")))).rejects.toThrow(
      "bad input",
    );
    let acted = 0;
    const act = async () => {
      acted++;
      // Long enough that the second submission arrives while the first acts.
      await new Promise((r) => setTimeout(r, 100));
      return { value: acted, outcome: "regenerated" };
    };
    const results = await Promise.all([consumeNonce(a.portal, form, act), consumeNonce(b.portal, form, act)]);
    expect(acted).toBe(1);
    expect(results.map((r) => r.kind).sort()).toEqual(["done", "used"]);
    expect(await b.portal.nonceState(nonce, "regenerate", "client-1")).toMatchObject({
      kind: "used",
      outcome: "regenerated",
    });
    expect(await a.portal.nonceState(nonce, "other", "client-1")).toEqual({ kind: "unknown" });
  });

  it("keeps portal login tokens one-time and sessions until they end", async () => {
    const store = await pgc.open(await pgc.fresh());
    const login = await store.portal.createLoginToken();
    expect(await store.portal.consumeLoginToken(login)).toBe(true);
    expect(await store.portal.consumeLoginToken(login)).toBe(false);
    const session = await store.portal.createSession();
    expect(await store.portal.sessionIsLive(session)).toBe(true);
    await store.portal.endSession(session);
    expect(await store.portal.sessionIsLive(session)).toBe(false);
    await store.portal.recordUrl("http://a");
    await store.portal.recordUrl("http://b");
    await store.portal.forgetUrl("http://a");
    expect(await store.portal.lastUrl()).toBe("http://b");
  });
});
