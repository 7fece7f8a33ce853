import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultHistoryPath, HistoryStore } from "../../../repl/input/history-store.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "mdps-history-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("HistoryStore", () => {
  it("persists entries between sessions, newest last, mode 0600", () => {
    const path = join(dir, "sub", "repl-history");
    const first = new HistoryStore(path);
    first.add("/load a.csv");
    first.add("/show a");
    first.add("/show a");
    expect(new HistoryStore(path).entries).toEqual(["/load a.csv", "/show a"]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it("remembers secret lines for the session but never writes them", () => {
    const path = join(dir, "repl-history");
    const store = new HistoryStore(path);
    store.add("client_secret=abcdef");
    store.add("/health");
    expect(store.entries).toEqual(["client_secret=abcdef", "/health"]);
    expect(readFileSync(path, "utf8")).toBe("/health\n");
  });

  it("drops secret lines found in an old file and keeps the newest entries", () => {
    const path = join(dir, "repl-history");
    const lines = Array.from({ length: 30 }, (_, i) => `/show f${i}`);
    writeFileSync(path, ["token=abc", ...lines].join("\n") + "\n");
    const store = new HistoryStore(path, 10);
    expect(store.entries).toEqual(lines.slice(-10));
    expect(readFileSync(path, "utf8")).not.toContain("token=abc");
  });

  it("lives under $MDPS_HOME", () => {
    expect(defaultHistoryPath({ MDPS_HOME: dir })).toBe(join(dir, "repl-history"));
  });
});
