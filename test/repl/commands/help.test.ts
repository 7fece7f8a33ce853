import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../../repl/commands/registry.js";
import { helpCommand } from "../../../repl/commands/help.js";
import type { CommandContext } from "../../../repl/commands/types.js";
import { parseArgs } from "../../../repl/commands/args.js";
import { PREPROCESSING_TYPES } from "../../../src/core/contract/transform-types.js";

// /help reads only the command list, so no workspace is needed.
const ctx = { commands: COMMANDS } as unknown as CommandContext;

describe("/help", () => {
  it("lists every command with its usage, and the keys", async () => {
    const out = await helpCommand.action(ctx, parseArgs([]));
    if (out.type !== "help") throw new Error(`expected help, got ${out.type}`);
    expect(out.keys).toBe(true);
    expect(out.entries.map((e) => e.name)).toEqual(COMMANDS.map((c) => c.name));
    for (const name of [
      "load",
      "show",
      "describe",
      "upload",
      "blobs",
      "preprocess",
      "jobs",
      "logs",
      "fetch",
      "save",
      "hist",
      "health",
      "clear",
      "quit",
    ]) {
      expect(
        out.entries.some((e) => e.name === name),
        name,
      ).toBe(true);
    }
  });

  it("explains one command, with every transform's parameters for /preprocess", async () => {
    const out = await helpCommand.action(ctx, parseArgs(["/preprocess"]));
    if (out.type !== "help") throw new Error(`expected help, got ${out.type}`);
    const details = out.entries[0]!.details!.join("\n");
    for (const type of PREPROCESSING_TYPES) expect(details).toContain(`${type}:`);
    expect(details).toContain("feature_range=<pair> (default [0,1])");
    expect(details).toContain('norm=<l1|l2|max> (default "l2")');
  });

  it("finds commands by alias and says so when there is none", async () => {
    const out = await helpCommand.action(ctx, parseArgs(["pp"]));
    expect(out.type === "help" && out.entries[0]!.name).toBe("preprocess");
    await expect(async () => helpCommand.action(ctx, parseArgs(["nope"]))).rejects.toThrow("No command /nope.");
  });

  it("every command has a name, a description and a usage that starts with it", () => {
    const names = new Set<string>();
    for (const c of COMMANDS) {
      for (const n of [c.name, ...(c.aliases ?? [])]) {
        expect(names.has(n), `duplicate name ${n}`).toBe(false);
        names.add(n);
      }
      expect(c.description.length).toBeGreaterThan(10);
      expect(c.usage.startsWith(`/${c.name}`)).toBe(true);
    }
  });
});
