import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { MdpsClient } from "../../src/client/client.js";
import { defaultConfigPath, resolveConfig } from "../../src/client/config.js";
import { ConfigError } from "../../src/client/errors.js";
import { Secret } from "../../src/client/secret.js";

const MODEL = "0b6b5a0e-4d5e-4c1e-9a39-2f3c1d0e7a11";
const SECRET = "top-secret-value-0123456789-abcdefghijkl";

function configFile(content: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), "mdps-config-"));
  const path = join(dir, "config.json");
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content), { mode: 0o600 });
  return path;
}

describe("resolveConfig", () => {
  it("lists every missing item in one ConfigError", () => {
    const err = (() => {
      try {
        resolveConfig({ env: {}, configFile: undefined, baseUrl: "http://127.0.0.1:1" });
      } catch (e) {
        return e;
      }
      return undefined;
    })() as ConfigError;
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.code).toBe("config_error");
    expect(err.missing).toHaveLength(3);
    for (const name of ["MDPS_CLIENT_ID", "MDPS_CLIENT_SECRET", "MDPS_MODEL_ID"]) expect(err.message).toContain(name);
    expect(err.message).toContain("Session.local()");
  });

  it("arguments beat environment, which beats the profile; defaults fill the rest", () => {
    const path = configFile({
      profiles: {
        default: {
          base_url: "http://file:1",
          client_id: "file-id",
          client_secret: "file-secret",
          model_id: MODEL,
          region: "uk1",
        },
      },
    });
    const env = {
      MDPS_CONFIG: path,
      MDPS_CLIENT_ID: "env-id",
      MDPS_SCOPES: "shared.health.read ml.preprocessing.read",
    };
    const cfg = resolveConfig({ env, clientId: "arg-id", baseUrl: "http://arg:2/" });
    expect(cfg.clientId).toBe("arg-id");
    expect(cfg.baseUrl).toBe("http://arg:2");
    expect(cfg.authUrl).toBe("http://arg:2");
    expect(cfg.appUrl).toBe("http://arg:2");
    expect(cfg.region).toBe("uk1");
    expect(cfg.clientSecret.reveal()).toBe("file-secret");
    expect(cfg.scopes).toEqual(["shared.health.read", "ml.preprocessing.read"]);
    expect(cfg.sources).toMatchObject({
      clientId: "argument",
      scopes: "environment",
      region: "config file",
      authUrl: "default",
    });
    expect(resolveConfig({ env }).clientId).toBe("env-id");
  });

  it("selects a named profile from argument, MDPS_PROFILE or default_profile", () => {
    const profile = (id: string) => ({ base_url: "http://h:1", client_id: id, client_secret: "s", model_id: MODEL });
    const path = configFile({ default_profile: "b", profiles: { a: profile("A"), b: profile("B"), c: profile("C") } });
    expect(resolveConfig({ env: {}, configFile: path }).clientId).toBe("B");
    expect(resolveConfig({ env: { MDPS_PROFILE: "c" }, configFile: path }).clientId).toBe("C");
    expect(resolveConfig({ env: { MDPS_PROFILE: "c" }, configFile: path, profile: "a" }).clientId).toBe("A");
    expect(() => resolveConfig({ env: {}, configFile: path, profile: "zz" })).toThrow(
      /Profile "zz" is not in .*it has: a, b, c/,
    );
  });

  it("rejects bad values with what to fix", () => {
    expect(() =>
      resolveConfig({
        env: {},
        baseUrl: "ftp://x",
        clientId: "i",
        clientSecret: "s",
        modelId: "nope",
        scopes: "shared.blob.fly",
      }),
    ).toThrow(
      /model API URL "ftp:\/\/x" is not an http\(s\) URL.*model id "nope" is not a UUID.*unknown scope\(s\) shared\.blob\.fly/,
    );
  });

  it("does not leak the file's text (with its secret) when the file is not JSON", () => {
    const path = configFile(`{"profiles": {"default": {"client_secret": "${SECRET}" oops`);
    expect(() => resolveConfig({ env: {}, configFile: path })).toThrow(ConfigError);
    try {
      resolveConfig({ env: {}, configFile: path });
    } catch (e) {
      expect(String(e)).not.toContain(SECRET);
      expect(inspect(e)).not.toContain(SECRET);
    }
  });

  it("a config file named by MDPS_CONFIG must exist; the default one may be absent", () => {
    expect(() => resolveConfig({ env: { MDPS_CONFIG: "/nonexistent/mdps.json" } })).toThrow(
      /Cannot read the mdps config file \/nonexistent\/mdps.json/,
    );
    const dir = mkdtempSync(join(tmpdir(), "mdps-xdg-"));
    expect(() => resolveConfig({ env: { XDG_CONFIG_HOME: dir } })).toThrow(/Missing: model API URL/);
  });

  it("finds the config file at $MDPS_CONFIG, then XDG, then ~/.config", () => {
    expect(defaultConfigPath({ MDPS_CONFIG: "/a/b.json" })).toBe("/a/b.json");
    expect(defaultConfigPath({ XDG_CONFIG_HOME: "/xdg" })).toBe("/xdg/mdps/config.json");
    expect(defaultConfigPath({})).toMatch(/\.config\/mdps\/config\.json$/);
  });
});

describe("secret redaction", () => {
  it("never shows the secret in toString, inspect, JSON or errors", () => {
    const secret = new Secret(SECRET);
    expect(String(secret)).toBe("***");
    // eslint-disable-next-line @typescript-eslint/restrict-template-expressions -- a Secret in a template is what is tested
    expect(`${secret}`).toBe("***");
    expect(inspect(secret)).not.toContain(SECRET);
    expect(JSON.stringify({ secret })).toBe('{"secret":"***"}');
    expect(secret.reveal()).toBe(SECRET);

    const cfg = resolveConfig({
      env: {},
      baseUrl: "http://127.0.0.1:9",
      clientId: "id",
      clientSecret: SECRET,
      modelId: MODEL,
    });
    const client = new MdpsClient(cfg);
    for (const text of [
      String(client),
      inspect(client, { depth: 10, showHidden: true }),
      JSON.stringify(client),
      inspect(cfg, { depth: 10, showHidden: true }),
      JSON.stringify(cfg),
      String(cfg.clientSecret),
    ]) {
      expect(text).not.toContain(SECRET);
    }
    expect(JSON.stringify(client)).toContain('"clientSecret":"***"');
    void client.close();
  });

  it("a failing config error does not contain a given secret", () => {
    try {
      resolveConfig({ env: { MDPS_CLIENT_SECRET: SECRET }, baseUrl: "not a url" });
    } catch (e) {
      expect(String(e)).not.toContain(SECRET);
      expect(inspect(e)).not.toContain(SECRET);
      expect(JSON.stringify(e)).not.toContain(SECRET);
      return;
    }
    throw new Error("expected a ConfigError");
  });
});
