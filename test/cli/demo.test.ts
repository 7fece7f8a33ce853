import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, beforeAll } from "vitest";
import { PREPROCESSING_TYPES } from "../../src/core/contract/index.js";
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

  it("--data runs the tour on the user's CSV: NA read as missing, complete columns for the transforms that need them", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mdps-demo-data-"));
    try {
      const path = join(dir, "my data.csv");
      writeFileSync(path, "name,a,b,c\nx,1,NA,3\ny,2,5,100\nz,3,6,4\nw,4,7,5\n");
      const run = await runCli(["demo", "--data", path], 120_000);
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^upload\s+my data\.csv -> blob /m);
      expect(run.stdout).toContain('1 missing value spelt "NA"');
      expect(run.stdout).toMatch(/^preprocess\s+StandardScaler on a, b, c -> job/m);
      // b's mean over the three values present: (5 + 6 + 7) / 3.
      expect(run.stdout).toMatch(/^\s+b\s+6\s+0\.6667\s+0\.8165\s+3$/m);
      expect(run.stdout).toMatch(/Binarizer\s+succeeded .* \(on a, c: it refuses missing values\)/);
      for (const type of PREPROCESSING_TYPES) expect(run.stdout).toMatch(new RegExp(`^\\s+${type}\\s+succeeded`, "m"));
      expect(run.stdout).toMatch(/demo finished in/);
      const missing = await runCli(["demo", "--data", join(dir, "nope.csv")], 60_000);
      expect(missing.code).not.toBe(0);
      expect(missing.stderr).toContain(`no such file: ${join(dir, "nope.csv")}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("`mdps start` (npm start) without a terminal runs the demo to the end", async () => {
    const run = await runCli(["start"], 120_000);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/succeeded · done 100%/);
    expect(run.stdout).toMatch(/demo finished in/);
  });
});
