/**
 * /usage and /rm against the reference service started by Session.local() on a temp
 * data dir: what the session and the data dir hold, deleting blobs by ref, and cleaning
 * the data dir by age without touching a queued job's input.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blobsCommand } from "../../../repl/commands/blobs.js";
import { preprocessCommand } from "../../../repl/commands/preprocess.js";
import { COMMANDS } from "../../../repl/commands/registry.js";
import { rmCommand } from "../../../repl/commands/rm.js";
import type { Output } from "../../../repl/commands/types.js";
import { uploadCommand } from "../../../repl/commands/upload.js";
import { usageCommand } from "../../../repl/commands/usage.js";
import { commandContext, openTestWorkspace, run, texts, type TestWorkspace } from "../fixtures.js";

let t: TestWorkspace;
beforeAll(async () => {
  t = await openTestWorkspace();
});
afterAll(() => t.close());

const text = (out: Output): string => texts(out).join("\n");
function table(out: Output): string[][] {
  const found = out.type === "group" ? out.items.find((i) => i.type === "table") : out;
  if (found?.type !== "table") throw new Error(`no table in ${out.type}`);
  return found.rows.map((r) => [...r]);
}

describe("/usage and /rm", () => {
  it("are registered", () => {
    expect(COMMANDS).toContain(usageCommand);
    expect(COMMANDS).toContain(rmCommand);
  });

  it("/usage shows this session's blobs and jobs and the local data dir", async () => {
    const ctx = commandContext(t.workspace, { interactive: false });
    await run(uploadCommand, ctx, "customers", "--format", "csv");
    await run(preprocessCommand, ctx, "customers", "StandardScaler");
    const rows = table(await run(usageCommand, ctx));
    expect(rows[0]?.slice(0, 2)).toEqual(["this session", "blobs"]);
    expect(rows[0]?.[2]).toMatch(/^2 \(/);
    expect(rows[1]).toEqual(["this session", "jobs", "1"]);
    // The job's input was uploaded by /preprocess on its own; its output is a third blob.
    expect(rows.find((r) => r[1] === "auto-uploaded inputs")?.[2]).toMatch(/^1 \(/);
    expect(rows.find((r) => r[0] === "data dir" && r[1] === "blobs")?.[2]).toMatch(/^3 \(/);
    expect(rows.find((r) => r[1] === "jobs" && r[0] === "data dir")?.[2]).toBe("1 (1 succeeded)");
  }, 60_000);

  it("/rm deletes blobs by ref and says what it freed; an unknown ref names the known ones", async () => {
    const ctx = commandContext(t.workspace);
    await expect(run(rmCommand, ctx)).rejects.toThrow("Which blob?");
    await expect(run(rmCommand, ctx, "b9")).rejects.toThrow('No blob "b9" in this session.');
    const out = await run(rmCommand, ctx, "b1");
    expect(text(out)).toMatch(/^Deleted b1 \(customers\): [\d.]+ KiB freed\.$/);
    const list = await run(blobsCommand, ctx);
    if (list.type !== "table") throw new Error(list.type);
    expect(list.rows.map((r) => r[0])).toEqual(["b2"]);
    // A ref is never reused for the next blob.
    const again = await run(uploadCommand, ctx, "customers");
    expect(text(again)).toContain("as blob b3");
  });

  it("/rm --older-than cleans the data dir (dry run first), and refuses a bad age", async () => {
    const ctx = commandContext(t.workspace);
    await expect(run(rmCommand, ctx, "--older-than", "soon")).rejects.toThrow("--older-than takes an age");
    // Nothing is older than a week in a fresh data dir.
    expect(text(await run(rmCommand, ctx, "--older-than", "7d", "--dry-run"))).toBe(
      "Would remove 0 blob(s) (0 B) and 0 finished job(s) older than 7d.",
    );
    // Everything is older than 0 s: the blobs go, and the finished job.
    const out = text(await run(rmCommand, ctx, "--older-than", "0s"));
    expect(out).toMatch(/^Removed 3 blob\(s\) \([\d.]+ KiB\) and 1 finished job\(s\) older than 0s\.$/);
    const list = await run(blobsCommand, ctx);
    // Every blob of this session went with them, so /blobs has none to list.
    expect(list.type).toBe("message");
  });
});
