/** Models, applications, tokens and the portal's one-time records, as every store keeps them. */
import { expect, it } from "vitest";
import { AdminError } from "../../../../src/server/domain/admin-error.js";
import type { StoreUnderTest } from "./store-under-test.js";

export function appAndPortalRecords(t: StoreUnderTest): void {
  it("keeps models and applications; deleting an application revokes its tokens", async () => {
    const { store } = t;
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
    expect(await store.apps.listModels()).toEqual([
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

    const grant = { clientId: app.client_id, modelId: model_id, scopes: ["shared.blob.read"] };
    const token = await store.tokens.issue({ ...grant, ttlSeconds: 60 });
    expect(await store.tokens.verify(token)).toMatchObject(grant);
    await store.apps.deleteApp(app.client_id);
    expect(await store.tokens.verify(token)).toBeUndefined();
    await expect(store.apps.deleteApp(app.client_id)).rejects.toThrow(AdminError);
  });

  it("accepts a token only in its region and only while it lives", async () => {
    const store = await t.open("eu");
    const elsewhere = await t.open("us");
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

  it("lets one submission of a one-time form take its nonce; a failed one gives it back", async () => {
    const { store } = t;
    const nonce = await store.portal.issueNonce("delete-blob", "b1");
    expect(await store.portal.claimNonce(nonce, "delete-blob", "b2")).toEqual({ kind: "unknown" });
    expect(await store.portal.claimNonce(nonce, "delete-blob", "b1")).toEqual({ kind: "fresh" });
    expect(await store.portal.claimNonce(nonce, "delete-blob", "b1")).toMatchObject({ kind: "used", outcome: null });
    await store.portal.releaseNonce(nonce);
    expect(await store.portal.claimNonce(nonce, "delete-blob", "b1")).toEqual({ kind: "fresh" });
    await store.portal.settleNonce(nonce, "deleted b1");
    expect(await store.portal.nonceState(nonce, "delete-blob", "b1")).toMatchObject({
      kind: "used",
      outcome: "deleted b1",
    });
  });

  it("keeps portal login tokens one-time and sessions until they end", async () => {
    const { store } = t;
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
}
