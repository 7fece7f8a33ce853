import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCommand } from "../../../repl/commands/load.js";
import { errorOutput } from "../../../repl/errors.js";
import { commandContext, openTestWorkspace, run, texts, type TestWorkspace } from "../fixtures.js";

let t: TestWorkspace;
beforeAll(async () => {
  t = await openTestWorkspace();
  writeFileSync(join(t.dir, "sales 2024.csv"), 'region,units,price\nnorth,3,2.5\nsouth,,4\n"west, far",7,1e3\n');
  writeFileSync(
    join(t.dir, "rows.json"),
    JSON.stringify([
      { a: 1, b: "x" },
      { a: 2.5, b: null },
    ]),
  );
  writeFileSync(join(t.dir, "notes.txt"), "hello");
});
afterAll(() => t.close());

describe("/load", () => {
  it("reads a CSV into a frame named after the file, missing values kept", async () => {
    const ctx = commandContext(t.workspace);
    const out = await run(loadCommand, ctx, "sales 2024.csv");
    expect(texts(out).join("\n")).toContain("Loaded sales 2024.csv into frame sales_2024: 3 rows × 3 columns.");
    const table = t.workspace.table("sales_2024");
    expect(table.columns.map((c) => [c.name, c.kind])).toEqual([
      ["region", "string"],
      ["units", "number"],
      ["price", "number"],
    ]);
    const units = table.columns[1]!.values as Float64Array;
    expect(units[0]).toBe(3);
    expect(units[1]).toBeNaN();
    expect(table.columns[0]!.values[2]).toBe("west, far");
    expect(table.columns[2]!.values[2]).toBe(1000);
  });

  it("reads JSON rows under the name given with `as`", async () => {
    await run(loadCommand, commandContext(t.workspace), "rows.json", "as", "rows");
    const table = t.workspace.table("rows");
    expect(table.rowCount).toBe(2);
    expect(Array.from(table.columns[0]!.values as Float64Array)).toEqual([1, 2.5]);
  });

  it("says what is wrong: no such file, unknown format, bad name, missing name after `as`", async () => {
    const ctx = commandContext(t.workspace);
    await expect(run(loadCommand, ctx, "missing.csv")).rejects.toThrow("No file missing.csv.");
    await expect(run(loadCommand, ctx, "notes.txt")).rejects.toThrow("Cannot tell the format of notes.txt.");
    await expect(run(loadCommand, ctx, "rows.json", "as", "2x")).rejects.toThrow('"2x" cannot name a frame.');
    await expect(run(loadCommand, ctx, "rows.json", "as")).rejects.toThrow("Which file, and which name?");
    await expect(run(loadCommand, ctx, "rows.json", "as", "session")).rejects.toThrow("taken");
  });

  it("completes data files and then `as`", () => {
    const completion = t.workspace.completion(() => []);
    expect(loadCommand.complete!(completion, [], "")).toEqual(["local/", "rows.json", "sales 2024.csv"]);
    expect(loadCommand.complete!(completion, ["rows.json"], "")).toEqual(["as"]);
  });

  it("stopped by Ctrl+C, says the file was not read, and nothing about uploads", async () => {
    const ctx = commandContext(t.workspace);
    ctx.abort.abort();
    const out = await run(loadCommand, ctx, "rows.json", "as", "stopped").catch(errorOutput);
    expect(texts(out).join(" ")).toBe(
      "Stopped reading rows.json; no frame stopped was made.  /load rows.json reads it again.",
    );
    expect(t.workspace.hasFrame("stopped")).toBe(false);
  });
});
