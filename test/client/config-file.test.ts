/**
 * Writing a profile into the config file: mode 0600 from the first byte, the config dir
 * 0700, other profiles and unmanaged keys kept, a rename (never an in-place rewrite),
 * and a file that is not an mdps config left alone. Real files in a temp dir.
 */
import { statSync, watch } from "node:fs";
import { chmod, lstat, mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readConfigFile, writePrivateFile, writeProfile, type ProfileEntry } from "../../src/client/config-file.js";
import { resolveConfig } from "../../src/client/config.js";
import { ConfigError } from "../../src/client/errors.js";

const SECRET = "s3cr3t-value-that-must-stay-private-0123456789";
const PROFILE: ProfileEntry = {
  base_url: "https://uk1.example.com",
  region: "uk1",
  client_id: "client-1",
  client_secret: SECRET,
  model_id: "6f1c7c8e-0000-4000-8000-000000000001",
  scopes: ["shared.blob.upload", "ml.preprocessing.execute"],
};

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "mdps-config-file-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const mode = async (path: string): Promise<number> => (await stat(path)).mode & 0o777;

describe("writeProfile", () => {
  it("creates the dir 0700 and the file 0600, and resolveConfig reads the profile back", async () => {
    const path = join(dir, "xdg", "mdps", "config.json");
    await writeProfile({ path, name: "uk1", profile: PROFILE, makeDefault: true });
    expect(await mode(join(dir, "xdg", "mdps"))).toBe(0o700);
    expect(await mode(join(dir, "xdg"))).toBe(0o700);
    expect(await mode(path)).toBe(0o600);
    const config = resolveConfig({ env: { XDG_CONFIG_HOME: join(dir, "xdg") } });
    expect(config.profile).toBe("uk1");
    expect(config.clientSecret.reveal()).toBe(SECRET);
    expect(config.scopes).toEqual(PROFILE.scopes);
    expect(config.region).toBe("uk1");
    // No temp file is left beside it.
    expect(await readdir(join(dir, "xdg", "mdps"))).toEqual(["config.json"]);
  });

  it("keeps the other profiles, default_profile and the profile's own extra keys; drops cleared settings", async () => {
    const path = join(dir, "config.json");
    const before = {
      default_profile: "eu2",
      comment: "kept",
      profiles: {
        eu2: {
          base_url: "https://eu2.example.com",
          client_id: "c2",
          client_secret: "other",
          model_id: PROFILE.model_id,
        },
        uk1: { base_url: "https://old.example.com", region: "old", record_types: { csv: "Csv" } },
      },
    };
    await writeFile(path, JSON.stringify(before), { mode: 0o600 });
    await writeProfile({ path, name: "uk1", profile: { ...PROFILE, region: undefined } });
    const after = JSON.parse(await readFile(path, "utf8")) as typeof before;
    expect(after.default_profile).toBe("eu2");
    expect(after.comment).toBe("kept");
    expect(after.profiles.eu2).toEqual(before.profiles.eu2);
    expect(after.profiles.uk1).toEqual({
      record_types: { csv: "Csv" },
      base_url: PROFILE.base_url,
      client_id: PROFILE.client_id,
      client_secret: SECRET,
      model_id: PROFILE.model_id,
      scopes: PROFILE.scopes,
    });
  });

  it("replaces a world-readable file with a 0600 one, by rename (a new inode), never rewriting it in place", async () => {
    const path = join(dir, "config.json");
    await writeFile(path, JSON.stringify({ profiles: {} }));
    await chmod(path, 0o644);
    const inode = (await stat(path)).ino;
    await writeProfile({ path, name: "uk1", profile: PROFILE });
    expect(await mode(path)).toBe(0o600);
    expect((await stat(path)).ino).not.toBe(inode);
  });

  it("the temp file is 0600 from the moment it appears", async () => {
    const path = join(dir, "config.json");
    const tempModes: number[] = [];
    const watcher = watch(dir, (_event, file) => {
      if (file === null || !file.endsWith(".tmp")) return;
      try {
        // Synchronous, so the mode is read as close as possible to the file's creation.
        tempModes.push(statSync(join(dir, file)).mode & 0o777);
      } catch {
        // Renamed away already.
      }
    });
    try {
      for (let i = 0; i < 30; i++) await writeProfile({ path, name: `p${i}`, profile: PROFILE });
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      watcher.close();
    }
    expect(tempModes.length).toBeGreaterThan(0);
    expect(tempModes.every((m) => m === 0o600)).toBe(true);
  });

  it("writes through a symlinked config file, leaving the link a link", async () => {
    const real = join(dir, "dotfiles", "mdps.json");
    await mkdir(join(dir, "dotfiles"));
    await writeFile(real, JSON.stringify({ profiles: {} }), { mode: 0o600 });
    const link = join(dir, "config.json");
    await symlink(real, link);
    await writeProfile({ path: link, name: "uk1", profile: PROFILE });
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await mode(real)).toBe(0o600);
    expect(JSON.parse(await readFile(real, "utf8"))).toHaveProperty("profiles.uk1.client_id", "client-1");
  });

  it("leaves a file that is not an mdps config alone, and says so without quoting it", async () => {
    const path = join(dir, "config.json");
    const text = `{"profiles": {"a": {"client_secret": "${SECRET}"`; /* cut short: not JSON */
    await writeFile(path, text, { mode: 0o600 });
    const error = await writeProfile({ path, name: "uk1", profile: PROFILE }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain("left as it is");
    expect((error as Error).message).not.toContain(SECRET);
    expect(await readFile(path, "utf8")).toBe(text);
    await writeFile(path, JSON.stringify({ profiles: [] }));
    await expect(readConfigFile(path)).rejects.toThrow(/not an mdps config/);
  });

  it("a failed write leaves the old file and no temp file", async () => {
    const path = join(dir, "config.json");
    await writeFile(path, "{}");
    // A directory where the file should go: the rename fails.
    const blocked = join(dir, "blocked");
    await mkdir(blocked);
    await expect(writePrivateFile(blocked, "x")).rejects.toThrow();
    expect((await readdir(dir)).sort()).toEqual(["blocked", "config.json"]);
    expect(await readFile(path, "utf8")).toBe("{}");
  });
});
