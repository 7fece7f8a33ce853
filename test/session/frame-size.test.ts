/**
 * Outputs too large for a DataFrame: refused with FrameTooLargeError before the heap is
 * exhausted (a child process on a small heap), and read instead with job.table() and
 * job.download(path). The estimate itself is checked against danfo's real cost.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { tableFromIPC } from "apache-arrow";
import { DataFrame } from "danfojs-node";
import { CREDENTIALS_FILE, FrameTooLargeError, Session } from "../../src/index.js";
import { assertFrameFits, estimateFrameBytes, jobOutputInstead } from "../../src/session/frame-size.js";
import { writeTable } from "../../src/core/formats/index.js";
import type { Column } from "../../src/core/formats/table.js";
import { writeFileAtomically } from "../../src/session/table-io.js";
import { tempDir } from "./session-fixture.js";

const run = promisify(execFile);

describe("frame size", () => {
  it("refuses a frame larger than the budget, naming the size and job.table()/job.download()", () => {
    const error = (() => {
      try {
        assertFrameFits({ rows: 2_000_000, columns: 10 }, "Job j's output 1", jobOutputInstead("j"), 100 * 2 ** 20);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(FrameTooLargeError);
    const e = error as FrameTooLargeError;
    expect(e.code).toBe("frame_too_large");
    expect([e.rows, e.columns]).toEqual([2_000_000, 10]);
    expect(e.message).toContain("2,000,000 rows x 10 columns");
    expect(e.message).toContain("job.table()");
    expect(e.message).toContain("job.download(");
    expect(() => {
      assertFrameFits({ rows: 1000, columns: 10 }, "small", "", 100 * 2 ** 20);
    }).not.toThrow();
  });

  it("estimates at least what danfo keeps: 24 bytes a value", () => {
    expect(estimateFrameBytes({ rows: 1_000_000, columns: 10 })).toBe(240_000_000);
  });

  it("a client on a 64 MiB heap: a 1,000,000 x 5 output is refused as a DataFrame, read as an Arrow table and a file", async () => {
    const dir = tempDir();
    const session = await Session.local({ dataDir: dir.path });
    try {
      const rows = 1_000_000;
      const columns: Record<string, number[]> = {};
      for (const name of ["x1", "x2", "x3", "x4", "x5"])
        columns[name] = Array.from({ length: rows }, (_, i) => (i * name.length) % 101);
      const job = await session.preprocess(new DataFrame(columns), { type: "StandardScaler" });
      await job.wait();
      const outPath = join(dir.path, "out.arrow");
      const { stdout } = await run(
        process.execPath,
        [
          "--max-old-space-size=64",
          "--import",
          "tsx",
          join(import.meta.dirname, "children/frame-limit.ts"),
          session.baseUrl,
          join(dir.path, CREDENTIALS_FILE),
          job.id,
          outPath,
        ],
        { timeout: 120_000, maxBuffer: 1 << 20 },
      );
      const out = JSON.parse(stdout.trim().split("\n").pop()!) as {
        refused?: { name: string; code: string; rows: number; columns: number; message: string };
        tableRows: number;
        firstColumn: string;
        file: { path: string; recordType: string; copied: boolean };
      };
      expect(out.refused).toMatchObject({ name: "FrameTooLargeError", code: "frame_too_large", rows, columns: 5 });
      expect(out.refused?.message).toContain("job.table()");
      expect(out.tableRows).toBe(rows);
      expect(out.firstColumn).toBe("x1");
      // The output is Arrow already: its bytes were copied to the file as they came.
      expect(out.file).toMatchObject({ path: outPath, recordType: "arrow", copied: true });
      const copy = tableFromIPC(readFileSync(outPath));
      expect(copy.numRows).toBe(rows);
      const x1 = copy.getChild("x1")!.toArray() as Float64Array;
      const mean = x1.reduce((a, b) => a + b, 0) / rows;
      expect(Math.abs(mean)).toBeLessThan(1e-9);
    } finally {
      await session.close();
      dir.remove();
    }
  }, 180_000);

  it("the REPL's /load on a 128 MiB heap refuses a 1,000,000 x 5 file as a frame instead of dying", async () => {
    const dir = tempDir();
    try {
      const rows = 1_000_000;
      const columns: Column[] = ["x1", "x2", "x3", "x4", "x5"].map((name, c) => ({
        name,
        kind: "number",
        values: Float64Array.from({ length: rows }, (_, i) => (i * (c + 1)) % 101),
      }));
      const file = join(dir.path, "big.arrow");
      await writeFileAtomically(file, writeTable("arrow", { columns, rowCount: rows }));
      const { stdout } = await run(
        process.execPath,
        ["--max-old-space-size=128", "--import", "tsx", join(import.meta.dirname, "children/repl-load-limit.ts"), file],
        { timeout: 120_000 },
      );
      const out = JSON.parse(stdout.trim().split("\n").pop()!) as { message?: string; hint?: string };
      expect(out.message).toBe("big.arrow is too large for a frame.");
      expect(out.hint).toContain("1,000,000 rows x 5 columns");
      expect(out.hint).toContain("job.download(path)");
    } finally {
      dir.remove();
    }
  }, 180_000);
});
