/**
 * A password in the base URL never shows: util.inspect, JSON.stringify, String and the
 * notebook HTML of a session, its errors, doctor and whoami, and the REPL's banner all
 * write `user:***@host`.
 */
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { shownUrl, withShownUrls } from "../../src/core/errors/shown-url.js";
import { Session } from "../../src/index.js";
import { Workspace } from "../../repl/workspace/workspace.js";

const PASSWORD = "pa55-w0rd-in-url";
// A closed port: nothing answers, so every call fails and says where it went.
const BASE = `http://alice:${PASSWORD}@127.0.0.1:9/`;

async function session(): Promise<Session> {
  return Session.connect({
    baseUrl: BASE,
    clientId: "c",
    clientSecret: "s".repeat(43),
    modelId: "00000000-0000-4000-8000-000000000000",
    configFile: false,
    journal: false,
    env: {},
    verify: false,
    timeoutMs: 2000,
    retry: { maxRetries: 0 },
  });
}

describe("a password in the base URL", () => {
  it("is *** in inspect, JSON, String and HTML", async () => {
    const s = await session();
    try {
      for (const text of [inspect(s), JSON.stringify(s), String(s), s.toHTML()]) {
        expect(text).not.toContain(PASSWORD);
        expect(text).toContain("alice:***@127.0.0.1");
      }
    } finally {
      await s.close();
    }
  });

  it("is *** in errors, doctor and whoami", async () => {
    const s = await session();
    try {
      const errors: unknown[] = [];
      for (const call of [() => s.portalUrl(), () => s.health(), () => s.whoami()]) {
        try {
          await call();
        } catch (error) {
          errors.push(error);
        }
      }
      expect(errors.length).toBe(3);
      for (const error of errors) expect(inspect(error)).not.toContain(PASSWORD);
      expect((errors[0] as Error).message).toContain("alice:***@127.0.0.1");
      const report = await s.doctor();
      expect(inspect(report, { depth: 10 }) + JSON.stringify(report)).not.toContain(PASSWORD);
      expect(JSON.stringify(report)).toContain("alice:***@");
    } finally {
      await s.close();
    }
  }, 60_000);

  it("is *** in the REPL's banner line (what it talks to, also shown by /health)", async () => {
    const s = await session();
    const workspace = new Workspace(s);
    try {
      const target = workspace.describeTarget();
      expect(target).not.toContain(PASSWORD);
      expect(target).toContain("service at http://alice:***@127.0.0.1:9 (model");
    } finally {
      await workspace.close();
    }
  });

  it("shownUrl and withShownUrls", () => {
    expect(shownUrl("https://u:p@h.example/x")).toBe("https://u:***@h.example/x");
    expect(shownUrl("https://u:p@h.example")).toBe("https://u:***@h.example");
    expect(shownUrl("https://h.example")).toBe("https://h.example");
    expect(shownUrl("https://u@h.example/")).toBe("https://u@h.example/");
    expect(withShownUrls("at https://u:p%40ss@h.example/a, then http://h2/")).toBe(
      "at https://u:***@h.example/a, then http://h2/",
    );
  });
});
