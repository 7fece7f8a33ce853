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
    expect(await repl.submit("undefinedName + 1")).toMatchObject({
      type: "error",
      title: "ReferenceError: undefinedName is not defined",
    });
    expect(await repl.submit("/nope")).toMatchObject({ type: "error", title: "Unknown command /nope." });
    expect(await repl.submit('/load "unterminated')).toMatchObject({ type: "error", title: "A quote is not closed." });
    expect(await repl.submit("/show customers --wide")).toMatchObject({
      type: "error",
      title: "Unknown option --wide.",
    });
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
    // Only the waiting stopped: the promise runs on, and the message says so.
    expect(await pending).toMatchObject({
      type: "error",
      title: "Stopped waiting for the JavaScript; it goes on in the background.",
    });
    expect(repl.snapshot().busy).toBeUndefined();
    expect(repl.cancel()).toBe(false);
    expect(await repl.submit("2 * 3")).toMatchObject({ text: "6" });
  });

  it("Ctrl+C during /preprocess --wait stops the wait, says the job goes on and how to cancel it", async () => {
    await repl.submit(BIG_FRAME);
    const ref = await startWaiting();
    expect(repl.cancel()).toBe(true);
    const out = await waitingLine;
    expect(out).toEqual({
      type: "error",
      title: `Stopped waiting for ${ref}; the job goes on.`,
      hint: `/cancel ${ref} cancels it (so does Ctrl+C again within 2 s); /jobs shows how it is doing.`,
    });
    // The job did go on.
    expect(t.workspace.jobs.find(ref)?.status).not.toBe("cancelled");
    expect((await t.workspace.findJob(ref).handle.status()).status).toMatch(/^(queued|running)$/);
    // Later than 2 s, Ctrl+C does not cancel it: only /cancel does.
    expect(t.workspace.takeRecentStop(Date.now() + 2500)).toBeUndefined();
    expect(repl.cancel()).toBe(false);
    expect(await repl.submit(`/cancel ${ref}`)).toEqual({
      type: "message",
      tone: "success",
      text: `Cancelled ${ref} (PowerTransformer on big); it keeps no output.`,
    });
    expect(t.workspace.jobs.find(ref)?.status).toBe("cancelled");
  }, 120_000);

  it("a second Ctrl+C within 2 s cancels the job, with the /cancel line in the transcript", async () => {
    const ref = await startWaiting();
    expect(repl.cancel()).toBe(true);
    await waitingLine;
    expect(repl.cancel()).toBe(true);
    await until(() => repl.snapshot().busy === undefined && lastOutputs(1)[0]?.type === "message", "the /cancel line");
    const items = repl.snapshot().items;
    expect(items.some((i) => i.kind === "input" && i.text === `/cancel ${ref}`)).toBe(true);
    expect(lastOutputs(1)[0]).toMatchObject({
      text: `Cancelled ${ref} (PowerTransformer on big); it keeps no output.`,
    });
    // The transcript's line for the finished job says cancelled, not failed.
    await until(
      () => items.length > 0 && repl.snapshot().items.some((i) => i.kind === "job" && i.job.ref === ref),
      "the job line",
    );
    const line = repl.snapshot().items.find((i) => i.kind === "job" && i.job.ref === ref);
    expect(line?.kind === "job" && line.job.status).toBe("cancelled");
    // Nothing more to cancel now.
    expect(repl.cancel()).toBe(false);
  }, 120_000);
});

// PowerTransformer on a million rows runs for over a second: long enough to stop a wait on it.
const BIG_FRAME =
  "const big = new dfd.DataFrame({ a: Array.from({ length: 1000000 }, (_, i) => Math.sin(i) * 10 + i / 1e6), b: Array.from({ length: 1000000 }, (_, i) => (i % 97) / 7) })";
let waitingLine: Promise<unknown>;

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Sends a slow job with --wait and resolves with its ref once the wait has begun. */
async function startWaiting(): Promise<string> {
  const before = t.workspace.jobs.jobs.length;
  waitingLine = repl.submit("/preprocess big PowerTransformer --wait");
  await until(() => t.workspace.jobs.jobs.length > before, "the job to be sent");
  const ref = t.workspace.jobs.jobs.at(-1)!.ref;
  await until(
    () =>
      repl
        .snapshot()
        .items.some((i) => i.kind === "output" && i.output.type === "message" && i.output.text.startsWith(`${ref}: `)),
    "the 'sent' line",
  );
  return ref;
}

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

describe("jobs sent from JavaScript", () => {
  it("are tracked like /preprocess jobs: named, listed by /jobs, finished in the transcript, usable by /logs and /fetch", async () => {
    const before = t.workspace.jobs.jobs.length;
    const blobsBefore = t.workspace.blobs().length;
    const sent = await repl.submit(
      'const sj = await session.preprocess(customers, { type: "StandardScaler", columns: ["age", "income"] })',
    );
    expect(sent.type).toBe("value");
    const ref = `j${before + 1}`;
    const input = `b${blobsBefore + 1}`;
    // Tracked before the line even returned, with the next short name; the DataFrame's
    // upload is listed by /blobs as its input.
    expect(t.workspace.jobs.jobs.at(-1)).toMatchObject({ ref, label: `StandardScaler on ${input} (JavaScript)` });
    const blobs = await repl.submit("/blobs");
    if (blobs.type !== "table") throw new Error(blobs.type);
    const listed = blobs.rows.find((r) => r[0] === input);
    expect(listed).toBeDefined();
    expect(listed).toContain(`input of ${ref} (JavaScript)`);
    expect(listed).toContain(t.workspace.blobs().at(-1)!.blob.id);
    expect(await repl.submit("sj.id")).toMatchObject({ text: `'${t.workspace.jobs.jobs.at(-1)!.id}'` });

    await t.workspace.jobs.waitFor(ref);
    const finished = repl.snapshot().items.find((i) => i.kind === "job" && i.job.ref === ref);
    expect(finished?.kind === "job" && finished.job).toMatchObject({
      status: "succeeded",
      label: `StandardScaler on ${input} (JavaScript)`,
    });

    const jobs = await repl.submit("/jobs");
    if (jobs.type !== "table") throw new Error(jobs.type);
    expect(jobs.rows.find((r) => r[0] === ref)?.slice(0, 5)).toEqual([
      ref,
      `StandardScaler on ${input} (JavaScript)`,
      "succeeded",
      "done",
      "100%",
    ]);

    const logs = await repl.submit(`/logs ${ref} --no-follow`);
    expect(texts(logs).join("\n")).not.toContain("No job");
    expect(repl.snapshot().items.some((i) => i.kind === "output" && i.output.type === "logs")).toBe(true);

    const fetched = await repl.submit(`/fetch ${ref} as js_std`);
    expect(texts(fetched)).toContain(`Fetched the result of ${ref} into frame js_std: 200 rows × 7 columns.`);
    const age = t.workspace.table("js_std").columns.find((c) => c.name === "age")!.values as Float64Array;
    expect(Math.abs(age.reduce((a, b) => a + b, 0) / age.length)).toBeLessThan(1e-12);
    expect(t.workspace.frameInfo("js_std")).toMatchObject({ job: ref, features: ["age", "income"] });
  });

  it("tracks session.sendJob too, once per job id, and /preprocess jobs only once", async () => {
    const before = t.workspace.jobs.jobs.length;
    const send =
      'await session.sendJob({ jobId: "5f0c7a2e-1b3d-4c5e-8f9a-0b1c2d3e4f50", type: "preprocessing", ' +
      'payload: { input_blob_id: sj.input.id, preprocessing_type: "MaxAbsScaler", output: [{ name: "out" }] } })';
    expect((await repl.submit(send)).type).toBe("value");
    // Sent again with the same id: the same job, not a second row.
    expect((await repl.submit(send)).type).toBe("value");
    const sendRef = `j${before + 1}`;
    // Its input is the blob the previous test's job uploaded, listed already: named, not added again.
    const input = t.workspace.blobs().find((b) => b.source.endsWith("(JavaScript)"))!.ref;
    const blobCount = t.workspace.blobs().length;
    expect(t.workspace.jobs.jobs.slice(before).map((j) => [j.ref, j.label])).toEqual([
      [sendRef, `MaxAbsScaler on ${input} (JavaScript)`],
    ]);
    expect(t.workspace.blobs()).toHaveLength(blobCount);

    await repl.submit("/preprocess customers MinMaxScaler --columns rating");
    const ppRef = `j${before + 2}`;
    expect(t.workspace.jobs.jobs.slice(before).map((j) => [j.ref, j.label])).toEqual([
      [sendRef, `MaxAbsScaler on ${input} (JavaScript)`],
      [ppRef, "MinMaxScaler on customers"],
    ]);
    expect(t.workspace.jobSource(ppRef)).toMatchObject({ type: "MinMaxScaler", frame: "customers" });

    const fetched = await repl.submit(`/fetch ${sendRef}`);
    expect(texts(fetched)).toContain(
      `Fetched the result of ${sendRef} into frame result_maxabs: 200 rows × 7 columns.`,
    );
    await t.workspace.jobs.waitFor(ppRef);
    const finished = repl
      .snapshot()
      .items.filter((i) => i.kind === "job" && (i.job.ref === sendRef || i.job.ref === ppRef));
    expect(finished).toHaveLength(2);
  });
});

describe("transcript", () => {
  it("adds finished jobs, and /clear empties it", async () => {
    await repl.submit("/preprocess customers MaxAbsScaler --columns spend");
    const ref = t.workspace.jobs.jobs.at(-1)!.ref;
    await t.workspace.jobs.waitFor(ref);
    const item = repl.snapshot().items.find((i) => i.kind === "job" && i.job.ref === ref);
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
