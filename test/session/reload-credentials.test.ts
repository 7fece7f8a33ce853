/**
 * session.reloadCredentials() against the real reference service: the application's
 * secret is regenerated (as the portal or `mdps admin regenerate-secret` does), the
 * session's old secret can no longer get a token, the new secret is written to the
 * config file, and after reloadCredentials() jobs run again while earlier Job handles
 * and blobs go on working.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeProfile, type ProfileEntry } from "../../src/client/config-file.js";
import { ConfigError, OAuthError, Session } from "../../src/index.js";
import { SCOPES } from "../../src/core/contract/scopes.js";
import { openAdmin, type RunningService } from "../../src/server/index.js";
import { ServiceStarter } from "../harness/service-starter.js";
import { column, sampleFrame, standardize, tempDir } from "./session-fixture.js";

const starter = new ServiceStarter();
const TOKEN_TTL_SECONDS = 1;

let dir: ReturnType<typeof tempDir> | undefined;
let service: RunningService | undefined;
let configFile = "";
let profile: ProfileEntry;

function admin<T>(use: (a: ReturnType<typeof openAdmin>) => T): T {
  const a = openAdmin(dir!.path);
  try {
    return use(a);
  } finally {
    a.close();
  }
}

beforeAll(async () => {
  dir = tempDir("mdps-reload-");
  service = await starter.start({ dataDir: dir.path, tokenTtlSeconds: TOKEN_TTL_SECONDS, jobWorkers: 1 });
  const { model_id, app } = admin((a) => {
    const model = a.createModel("m");
    return { model_id: model.model_id, app: a.addApp({ modelId: model.model_id, name: "nb", scopes: [...SCOPES] }) };
  });
  profile = {
    base_url: service.url,
    model_id,
    client_id: app.client_id,
    client_secret: app.client_secret,
    scopes: [...SCOPES],
  };
  configFile = `${dir.path}/config.json`;
  await writeProfile({ path: configFile, name: "uk1", profile, makeDefault: true });
});
afterAll(async () => {
  await starter.cleanup();
  dir?.remove();
});

/** Past the token's lifetime, so the next call must exchange the secret again. */
const tokenExpiry = () => sleep(TOKEN_TTL_SECONDS * 1000 + 200);

describe("session.reloadCredentials()", () => {
  it("picks up a regenerated secret from the config file; jobs, blobs and earlier Job handles stay", async () => {
    const session = await Session.connect({ configFile, env: {} });
    try {
      const df = sampleFrame(40);
      const first = await session.preprocess(df, { type: "StandardScaler", columns: ["x1", "x2"] });
      await first.wait({ progress: false });
      const blobsBefore = session.blobs().map((b) => b.id);

      const oldSecret = profile.client_secret;
      const { client_secret: newSecret } = admin((a) => a.regenerateSecret(profile.client_id));
      await tokenExpiry();
      // The old secret is refused once the token it got has expired.
      const refused = await session.health().catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(OAuthError);
      expect((refused as OAuthError).code).toBe("invalid_client");
      for (const text of [String(refused), inspect(refused, { depth: 8 }), JSON.stringify(refused)]) {
        expect(text).not.toContain(oldSecret);
        expect(text).not.toContain(newSecret);
      }
      // Reloading before the file changed keeps the old secret, and says so by failing the same way.
      await expect(session.reloadCredentials()).rejects.toMatchObject({ code: "invalid_client" });

      profile = { ...profile, client_secret: newSecret };
      await writeProfile({ path: configFile, name: "uk1", profile });
      const before = session.client.tokens.refreshCount;
      const reload = await session.reloadCredentials();
      expect(reload).toEqual({
        clientId: profile.client_id,
        profile: "uk1",
        secretFrom: "config file",
        secretChanged: true,
      });
      expect(session.client.tokens.refreshCount).toBe(before + 1);
      expect(JSON.stringify(reload)).not.toContain(newSecret);
      expect(inspect(session.client)).not.toContain(newSecret);

      const second = await session.preprocess(df, { type: "StandardScaler", columns: ["x1", "x2"] });
      await second.wait({ progress: false });
      // The earlier handle reads its result with the new token.
      await tokenExpiry();
      const scaled = await first.dataframe();
      expect(column(scaled, "x2")).toEqual(
        standardize(column(df, "x2") as number[]).map((v): unknown => expect.closeTo(v as number, 9)),
      );
      expect((await session.jobs()).map((j) => j.id)).toEqual(expect.arrayContaining([first.id, second.id]));
      expect(session.blobs().map((b) => b.id)).toEqual(expect.arrayContaining(blobsBefore));
    } finally {
      await session.close();
    }
  }, 60_000);

  it("refuses settings of another service or model, and keeps the credentials it had", async () => {
    const session = await Session.connect({ configFile, env: {} });
    try {
      await writeProfile({
        path: configFile,
        name: "uk1",
        profile: { ...profile, model_id: "6f1c7c8e-0000-4000-8000-000000000009" },
      });
      const error = await session.reloadCredentials().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(/change modelId .*only the credentials can change/);
      expect(session.modelId).toBe(profile.model_id);
      await tokenExpiry();
      expect((await session.health()).status).toBe("healthy");
    } finally {
      await writeProfile({ path: configFile, name: "uk1", profile });
      await session.close();
    }
  }, 30_000);

  it("a secret passed to connect() as an option is the one used again (secretChanged false)", async () => {
    const session = await Session.connect({ configFile, env: {}, clientSecret: profile.client_secret });
    try {
      const reload = await session.reloadCredentials();
      expect(reload.secretFrom).toBe("argument");
      expect(reload.secretChanged).toBe(false);
    } finally {
      await session.close();
    }
  });

  it("a local session has nothing to reload", async () => {
    const local = tempDir("mdps-reload-local-");
    const session = await Session.local({ dataDir: local.path });
    try {
      await expect(session.reloadCredentials()).rejects.toThrow(/Session.local\(\) keeps its own/);
    } finally {
      await session.close();
      local.remove();
    }
  }, 30_000);
});
