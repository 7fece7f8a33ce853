/** The controller on a real local session: JavaScript, errors that never end the session, cancel, history, clear. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ReplController } from "../../repl/controller.js";
import { HistoryStore } from "../../repl/input/history-store.js";
import { openTestWorkspace, texts, type TestWorkspace } from "./fixtures.js";

let t: TestWorkspace;
let repl: ReplController;
let historyPath: string;
beforeAll(async () => {
  t = await openTestWorkspace();
  historyPath = join(t.dir, "repl-history");
  repl = new ReplController(t.workspace, { interactive: true, history: new HistoryStore(historyPath) });
});
afterAll(() => t.close());

const lastOutputs = (n: number) =>
  repl
    .snapshot()
    .items.slice(-n)
    .flatMap((i) => (i.kind === "output" ? [i.output] : []));

describe("JavaScript at the prompt", () => {
  it("has session, dfd and the frames in scope, and prints DataFrames as tables", async () => {
    expect(await repl.submit("customers.shape")).toMatchObject({ type: "value", text: "[ 200, 7 ]" });
    const table = await repl.submit("customers.head(2)");
    expect(table.type).toBe("table");
    expect(texts(table)).toContain("c0001 professional 47 27760 711.01 1 4.4");
    expect(await repl.submit("typeof dfd.DataFrame")).toMatchObject({ text: "'function'" });
    const health = await repl.submit("(await session.health()).status");
    expect(health).toMatchObject({ type: "value", text: "'healthy'" });
  });

  it("turns DataFrame variables into frames and forgets overwritten ones", async () => {
    await repl.submit("const older = customers.query(customers['age'].gt(60))");
    expect(t.workspace.frameNames()).toContain("older");
    expect((await repl.submit("/show older 2")).type).toBe("table");
    await repl.submit("older = 5");
    expect(t.workspace.frameNames()).not.toContain("older");
  });

  it("shows errors and keeps going", async () => {
    const before = repl.failures;
    expect(await repl.submit("undefinedName + 1")).toMatchObject({ type: "error", title: "ReferenceError: undefinedName is not defined" });
    expect(await repl.submit("/nope")).toMatchObject({ type: "error", title: "Unknown command /nope." });
    expect(await repl.submit('/load "unterminated')).toMatchObject({ type: "error", title: "A quote is not closed." });
    expect(await repl.submit("/show customers --wide")).toMatchObject({ type: "error", title: "Unknown option --wide." });
    // A service error shows its status, title and detail, with a hint.
    const missing = await repl.submit("await session.job('00000000-0000-4000-8000-000000000000').status()");
    expect(missing).toMatchObject({ type: "error", title: "404 Not Found" });
    expect(texts(missing).join("\n")).toContain("00000000-0000-4000-8000-000000000000");
    expect(missing.type === "error" && missing.hint).toContain("/jobs");
    expect(repl.failures).toBe(before + 5);
    expect(await repl.submit("1 + 1")).toMatchObject({ type: "value", text: "2" });
    expect(lastOutputs(1)).toEqual([{ type: "value", text: "2" }]);
  });
});

describe("cancel", () => {
  it("Ctrl+C stops the running line and the next one runs", async () => {
    const pending = repl.submit("await new Promise(() => {})");
    expect(repl.snapshot().busy?.line).toBe("await new Promise(() => {})");
    expect(repl.cancel()).toBe(true);
    expect(await pending).toMatchObject({ type: "error", title: "Cancelled." });
    expect(repl.snapshot().busy).toBeUndefined();
    expect(repl.cancel()).toBe(false);
    expect(await repl.submit("2 * 3")).toMatchObject({ text: "6" });
  });
});

describe("history", () => {
  it("persists lines but never one holding a secret", async () => {
    await repl.submit("const token = 'abc'");
    await repl.submit(`'${"Zx9".repeat(4)}Qm2Lp8Wv5Rt7Kj3Hn6'`);
    const file = readFileSync(historyPath, "utf8");
    expect(file).toContain("customers.shape\n");
    expect(file).not.toContain("token");
    expect(file).not.toContain("Qm2Lp8Wv5Rt7Kj3Hn6");
    expect(repl.history.entries.at(-2)).toBe("const token = 'abc'");
  });
});

describe("transcript", () => {
  it("adds finished jobs, and /clear empties it", async () => {
    await repl.submit("/preprocess customers MaxAbsScaler --columns spend");
    const ref = t.workspace.jobs.jobs.at(-1)!.ref;
    await t.workspace.jobs.waitFor(ref);
    const item = repl.snapshot().items.find((i) => i.kind === "job");
    expect(item?.kind === "job" && item.job).toMatchObject({ ref, status: "succeeded" });
    const epoch = repl.snapshot().epoch;
    await repl.submit("/clear");
    expect(repl.snapshot().items).toEqual([]);
    expect(repl.snapshot().epoch).toBe(epoch + 1);
  });

  it("/quit sets quitting", async () => {
    await repl.submit("/quit");
    expect(repl.snapshot().quitting).toBe(true);
  });
});
