import { describe, expect, it, beforeAll } from "vitest";
import { PREPROCESSING_TYPES } from "../../src/contract/index.js";
import { ensureBuilt, runCli } from "./built-cli.js";

beforeAll(() => ensureBuilt(), 300_000);

describe("mdps demo (what npm start runs)", () => {
  it("runs the whole workflow to the end and prints no secret", async () => {
    const run = await runCli(["demo"], 120_000);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    for (const step of [
      "service",
      "portal",
      "token",
      "upload",
      "preprocess",
      "logs",
      "result",
      "output",
      "transforms",
      "encrypted",
      "download",
      "update",
      "delete",
      "health",
    ]) {
      expect(run.stdout).toMatch(new RegExp(`^${step}\\s`, "m"));
    }
    expect(run.stdout).toMatch(/succeeded · done 100%/);
    expect(run.stdout).toContain("mean_");
    for (const type of PREPROCESSING_TYPES) expect(run.stdout).toMatch(new RegExp(`^\\s+${type}\\s+succeeded`, "m"));
    expect(run.stdout).toMatch(/-> 412/);
    expect(run.stdout).toMatch(/"deleted":true/);
    expect(run.stdout).toMatch(/demo finished in/);
    // Secrets, tokens and keys are 43 base64url characters; nothing of that shape is printed.
    expect(run.stdout).not.toMatch(/(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/);
  });

  it("`mdps start` (npm start) without a terminal runs the demo to the end", async () => {
    const run = await runCli(["start"], 120_000);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/succeeded · done 100%/);
    expect(run.stdout).toMatch(/demo finished in/);
  });
});
