/**
 * Memory kept after a call: once the caller lets go of the frames, an open Session keeps
 * nothing of a job's data (measured in a child process with --expose-gc).
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { tempDir } from "./session-fixture.js";

const run = promisify(execFile);

describe("memory after a call", () => {
  it("returns to what it was before a 200,000 x 10 job while the session stays open", async () => {
    const dir = tempDir();
    try {
      const { stdout } = await run(
        process.execPath,
        ["--expose-gc", "--import", "tsx", join(import.meta.dirname, "children/memory-after-call.ts"), dir.path],
        { timeout: 120_000 },
      );
      const { held, after } = JSON.parse(stdout.trim().split("\n").pop()!) as { held: number; after: number };
      // Two 200,000 x 10 frames held by the caller are some 90 MiB: the measure sees them...
      expect(held).toBeGreaterThan(40);
      // ...and once they are dropped, less than a tenth of one stays (modules' caches, pools).
      expect(after).toBeLessThan(5);
    } finally {
      dir.remove();
    }
  }, 180_000);
});
