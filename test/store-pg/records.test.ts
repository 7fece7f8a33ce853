/**
 * What only PostgreSQL's records need beyond the conformance suite every store passes
 * (test/server/store/conformance/): a blob's record compared field by field with SQLite's,
 * damage remembered outside the caller's transaction, and a form nonce two replicas race for.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { consumeNonce } from "../../src/server/portal/one-time-forms.js";
import { toBlobRecord } from "../../src/server/domain/blobs.js";
import { blobContent as content } from "../server/store/conformance/store-under-test.js";
import { openSqliteStores } from "../../src/server/store/sqlite/index.js";
import { postgresTool } from "../harness/postgres.js";
import { describeWithTool } from "../required-tool.js";
import { useCluster } from "./cluster.js";

describeWithTool(postgresTool, "the PostgreSQL store's records", () => {
  const pgc = useCluster();

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
});
