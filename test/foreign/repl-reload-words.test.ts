/**
 * REPL /reload against the vendor with closed vocabularies: the profile had no words, so
 * uploads were refused; `mdps configure` (here: writeProfile, as it writes) adds them and
 * /reload makes the running session send them, without a restart.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reloadCommand } from "../../repl/commands/reload.js";
import { Workspace } from "../../repl/workspace/workspace.js";
import { writeProfile, type ProfileEntry } from "../../src/client/config-file.js";
import { Session, ValidationError } from "../../src/index.js";
import { tempDir } from "../session/session-fixture.js";
import { commandContext, run, texts } from "../repl/fixtures.js";
import { inputFrame, useForeignSessions } from "./foreign-helpers.js";

const { start } = useForeignSessions({ jobDelayMs: 30, errorBodies: "aspnet" });

describe("/reload re-reads the service's words", () => {
  it("a refused upload, words written to the profile, /reload: the next upload is taken", async () => {
    const service = await start();
    const dir = tempDir("mdps-reload-words-");
    const configFile = join(dir.path, "config.json");
    const profile: ProfileEntry = {
      base_url: service.baseUrl,
      model_id: service.modelId,
      client_id: service.clientId,
      client_secret: service.clientSecret,
    };
    await writeProfile({ path: configFile, name: "vendor", profile, makeDefault: true });
    const session = await Session.connect({ configFile, env: {}, journal: false });
    const workspace = new Workspace(session, { cwd: dir.path });
    try {
      await expect(session.upload(inputFrame(), { name: "before.csv" })).rejects.toBeInstanceOf(ValidationError);
      const ctx = commandContext(workspace);
      const unchanged = await run(reloadCommand, ctx);
      expect(unchanged).toMatchObject({ type: "message", tone: "warning" });

      await writeProfile({
        path: configFile,
        name: "vendor",
        profile: { ...profile, record_types: { csv: "Csv" }, access_tiers: { hot: "Hot" } },
      });
      const reloaded = await run(reloadCommand, ctx);
      expect(reloaded).toMatchObject({ type: "message", tone: "success" });
      expect(texts(reloaded).join()).toContain(
        "The service's words are now: record type words csv -> Csv; access tier words hot -> Hot.",
      );
      expect(texts(reloaded).join()).not.toContain(service.clientSecret);
      const blob = await session.upload(inputFrame(), { name: "after.csv" });
      expect(blob.record.record_type).toBe("Csv");
      expect(service.blobNames()).toEqual(["after.csv"]);
    } finally {
      await workspace.close();
      dir.remove();
    }
  }, 60_000);
});
