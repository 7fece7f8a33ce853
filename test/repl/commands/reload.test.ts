/**
 * /reload on a REPL workspace connected to the real reference service through a
 * config-file profile: the secret is regenerated and written to the profile, /reload
 * picks it up, and the frames, jobs and blobs of the workspace stay. On the local
 * service it says there is nothing to reload.
 */
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { DataFrame } from "danfojs-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { healthCommand } from "../../../repl/commands/health.js";
import { reloadCommand } from "../../../repl/commands/reload.js";
import { Workspace } from "../../../repl/workspace/workspace.js";
import { writeProfile, type ProfileEntry } from "../../../src/client/config-file.js";
import { OAuthError } from "../../../src/client/errors.js";
import { SCOPES } from "../../../src/core/contract/scopes.js";
import { Session } from "../../../src/index.js";
import { openAdmin, type RunningService } from "../../../src/server/index.js";
import { ServiceStarter } from "../../harness/service-starter.js";
import { tempDir } from "../../session/session-fixture.js";
import { commandContext, openTestWorkspace, run, texts } from "../fixtures.js";

const starter = new ServiceStarter();
let dir: ReturnType<typeof tempDir> | undefined;
let service: RunningService | undefined;
let profile: ProfileEntry;
let configFile = "";

beforeAll(async () => {
  dir = tempDir("mdps-repl-reload-");
  service = await starter.start({ dataDir: dir.path, tokenTtlSeconds: 1, jobWorkers: 1 });
  const admin = openAdmin(dir.path);
  try {
    const { model_id } = admin.createModel("m");
    const app = admin.addApp({ modelId: model_id, name: "repl", scopes: [...SCOPES] });
    profile = { base_url: service.url, model_id, client_id: app.client_id, client_secret: app.client_secret };
  } finally {
    admin.close();
  }
  configFile = join(dir.path, "config.json");
  await writeProfile({ path: configFile, name: "uk1", profile, makeDefault: true });
});
afterAll(async () => {
  await starter.cleanup();
  dir?.remove();
});

describe("/reload", () => {
  it("picks up a regenerated secret written to the profile; the workspace keeps its jobs", async () => {
    const session = await Session.connect({ configFile, env: {} });
    const workspace = new Workspace(session, { cwd: dir!.path });
    try {
      const ctx = commandContext(workspace);
      const unchanged = await run(reloadCommand, ctx);
      expect(unchanged).toMatchObject({ type: "message", tone: "warning" });
      expect(texts(unchanged).join()).toContain("is the one already in use");

      const job = await session.preprocess(new DataFrame({ a: [1, 2, 4] }), { type: "MaxAbsScaler" });
      await job.wait({ progress: false });
      expect(workspace.jobs.jobs).toHaveLength(1);

      const admin = openAdmin(dir!.path);
      const fresh = admin.regenerateSecret(profile.client_id).client_secret;
      admin.close();
      await sleep(1200);
      await expect(run(healthCommand, ctx)).rejects.toBeInstanceOf(OAuthError);

      await writeProfile({ path: configFile, name: "uk1", profile: { ...profile, client_secret: fresh } });
      const reloaded = await run(reloadCommand, ctx);
      expect(reloaded).toEqual({
        type: "message",
        tone: "success",
        text: `Reloaded client ${profile.client_id} (profile uk1): a new secret from the config file, and a token with it.`,
      });
      expect(texts(reloaded).join()).not.toContain(fresh);
      expect(texts(await run(healthCommand, ctx)).join()).toContain("The service is healthy.");
      expect(workspace.jobs.jobs).toHaveLength(1);
      expect((await job.dataframe()).column("a").values).toEqual([0.25, 0.5, 1]);
    } finally {
      await workspace.close();
    }
  }, 60_000);

  it("on the local service says there is nothing to reload", async () => {
    const t = await openTestWorkspace();
    try {
      const out = await run(reloadCommand, commandContext(t.workspace));
      expect(out).toMatchObject({ type: "message", tone: "warning" });
      expect(texts(out).join()).toContain("Session.local() keeps its own application's credentials");
    } finally {
      await t.close();
    }
  }, 60_000);
});
