/**
 * The commands that talk to the service, in the order a lesson uses them, against the
 * reference service started by Session.local() on a temp data dir.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyCommand, invertCommand } from "../../../repl/commands/apply.js";
import { blobsCommand } from "../../../repl/commands/blobs.js";
import { fetchCommand } from "../../../repl/commands/fetch.js";
import { healthCommand } from "../../../repl/commands/health.js";
import { histCommand } from "../../../repl/commands/hist.js";
import { jobsCommand } from "../../../repl/commands/jobs.js";
import { logsCommand } from "../../../repl/commands/logs.js";
import { preprocessCommand } from "../../../repl/commands/preprocess.js";
import { uploadCommand } from "../../../repl/commands/upload.js";
import type { Output } from "../../../repl/commands/types.js";
import { commandContext, openTestWorkspace, run, texts, type TestWorkspace } from "../fixtures.js";

let t: TestWorkspace;
beforeAll(async () => {
  t = await openTestWorkspace();
});
afterAll(() => t.close());

const text = (out: Output): string => texts(out).join("\n");

describe("/upload and /blobs", () => {
  it("uploads a frame and lists the blobs made in this session", async () => {
    const ctx = commandContext(t.workspace);
    const out = await run(uploadCommand, ctx, "customers", "as", "class-data", "--format", "csv");
    expect(text(out)).toMatch(/^Uploaded customers as blob b1: class-data, csv, [\d.]+ KiB \(id [0-9a-f-]{36}\)\.$/);
    await run(uploadCommand, ctx, "customers", "--encrypt");
    const list = await run(blobsCommand, ctx);
    if (list.type !== "table") throw new Error(list.type);
    expect(list.rows.map((r) => [r[0], r[1], r[2], r[4]])).toEqual([
      ["b1", "class-data", "csv", "no"],
      ["b2", "customers", "arrow", "yes"],
    ]);
    await expect(run(uploadCommand, ctx, "customers", "--format", "xml")).rejects.toThrow('Unknown format "xml".');
  });
});

describe("/preprocess, /jobs, /logs, /fetch, /hist", () => {
  it("refuses bad parameters before sending anything", async () => {
    const ctx = commandContext(t.workspace);
    const before = t.workspace.jobs.jobs.length;
    await expect(run(preprocessCommand, ctx, "customers", "Normalizer", "norm=l3")).rejects.toThrow(
      "Invalid parameters for Normalizer",
    );
    await expect(run(preprocessCommand, ctx, "customers", "StandardScaler", "--columns", "age,height")).rejects.toThrow(
      "customers has no column height.",
    );
    await expect(run(preprocessCommand, ctx, "nothing", "StandardScaler")).rejects.toThrow(
      'No frame or blob "nothing".',
    );
    await expect(run(preprocessCommand, ctx, "customers", "Scaler")).rejects.toThrow('Unknown transform "Scaler".');
    expect(t.workspace.jobs.jobs.length).toBe(before);
    expect(t.workspace.blobs().length).toBe(2);
  });

  it("runs a job in the background, lists it, follows its log and fetches the result", async () => {
    const ctx = commandContext(t.workspace);
    const sent = await run(
      preprocessCommand,
      ctx,
      "customers",
      "standardscaler",
      "with_mean=true",
      "--columns",
      "age,income",
    );
    expect(text(sent)).toMatch(/^j1: StandardScaler on customers sent \(job [0-9a-f-]{36}\)\./);
    // The frame was uploaded as the job's input: a blob of this session.
    expect(t.workspace.blobs().at(-1)?.source).toBe("frame customers (input of j1)");

    const logs = commandContext(t.workspace);
    const end = await run(logsCommand, logs, "j1");
    const lines = logs.emitted.flatMap((o) => (o.type === "logs" ? o.lines.map((l) => l.message) : []));
    expect(lines.some((m) => m.includes("features: age, income"))).toBe(true);
    expect(text(end)).toMatch(/^j1: \d+ log lines?; the job succeeded\.$/);

    const jobs = await run(jobsCommand, ctx);
    if (jobs.type !== "table") throw new Error(jobs.type);
    expect(jobs.rows[0]!.slice(0, 5)).toEqual(["j1", "StandardScaler on customers", "succeeded", "done", "100%"]);

    const fetched = await run(fetchCommand, ctx, "j1");
    expect(text(fetched)).toContain("Fetched the result of j1 into frame customers_std: 200 rows × 7 columns.");
    const age = t.workspace.table("customers_std").columns.find((c) => c.name === "age")!.values as Float64Array;
    const mean = age.reduce((a, b) => a + b, 0) / age.length;
    expect(Math.abs(mean)).toBeLessThan(1e-12);
    // Passthrough columns are unchanged.
    expect(t.workspace.table("customers_std").columns[0]!.values.slice(0, 2)).toEqual(["c0001", "c0002"]);
    expect(t.workspace.frameInfo("customers_std")).toMatchObject({
      parent: "customers",
      job: "j1",
      features: ["age", "income"],
    });

    const hist = await run(histCommand, ctx, "customers_std", "age", "--bins", "5");
    if (hist.type !== "histogram") throw new Error(hist.type);
    expect(hist.panels.map((p) => p.label)).toEqual(["before: customers.age", "after: customers_std.age"]);
    expect(hist.panels.map((p) => p.bins.reduce((n, b) => n + b.count, 0))).toEqual([200, 200]);
    // A column the job did not transform has no "before".
    const spend = await run(histCommand, ctx, "customers_std", "spend");
    expect(spend.type === "histogram" && spend.panels.length).toBe(1);
    await expect(async () => run(histCommand, ctx, "customers_std", "segment")).rejects.toThrow(
      "customers_std.segment is not numeric.",
    );
  });

  it("in piped mode waits for the job and reports a failure as an error", async () => {
    const ctx = commandContext(t.workspace, { interactive: false });
    const blobs = t.workspace.blobs().length;
    const out = await run(
      preprocessCommand,
      ctx,
      // The blob of the frame: the frame itself would be refused before sending (first-hour.test.ts).
      "b1",
      "PowerTransformer",
      "method=box-cox",
      "--columns",
      "visits",
    );
    // The frame went up with the first job as b1; this one sends that blob again.
    expect(t.workspace.blobs().length).toBe(blobs);
    expect(out.type).toBe("error");
    expect(text(out)).toContain("Job failed");
    expect(text(out)).toContain("strictly positive");
    const ref = t.workspace.jobs.jobs.at(-1)!.ref;
    await expect(run(fetchCommand, ctx, ref)).rejects.toThrow(/failed/);
  });

  it("takes a blob as input and names the result with `as`", async () => {
    const ctx = commandContext(t.workspace, { interactive: false });
    const out = await run(preprocessCommand, ctx, "b1", "MinMaxScaler", "feature_range=0,10", "--columns", "rating");
    expect(out.type).toBe("none");
    const ref = t.workspace.jobs.jobs.at(-1)!.ref;
    await run(fetchCommand, ctx, ref, "as", "rated");
    const rating = t.workspace.table("rated").columns.find((c) => c.name === "rating")!.values as Float64Array;
    const present = Array.from(rating).filter((v) => !Number.isNaN(v));
    expect(Math.min(...present)).toBe(0);
    expect(Math.max(...present)).toBe(10);
  });

  it("/apply uses a job's fit on another frame; /invert maps it back", async () => {
    const ctx = commandContext(t.workspace, { interactive: false });
    await run(preprocessCommand, ctx, "customers", "RobustScaler", "--columns", "age,income");
    const ref = t.workspace.jobs.jobs.at(-1)!.ref;
    // another frame with the same columns: the first 50 customers
    const ages = t.workspace.table("customers").columns.find((c) => c.name === "age")!.values as Float64Array;
    await t.workspace.evaluate("newer = customers.head(50)", ctx.signal, 80);
    const applied = await run(applyCommand, ctx, ref, "newer");
    expect(text(applied)).toContain(
      `Applied ${ref}'s RobustScaler to newer here: frame newer_robust, 50 rows × 7 columns.`,
    );
    expect(t.workspace.frameInfo("newer_robust")).toMatchObject({
      parent: "newer",
      job: ref,
      features: ["age", "income"],
    });
    const fitted = (await t.workspace.findJob(ref).handle.result()).fitted as unknown as {
      center_: number[];
      scale_: number[];
    };
    const scaled = t.workspace.table("newer_robust").columns.find((c) => c.name === "age")!.values as Float64Array;
    expect(scaled[0]).toBe((ages[0]! - fitted.center_[0]!) / fitted.scale_[0]!);

    const inverted = await run(invertCommand, ctx, ref, "newer_robust", "as", "back");
    expect(text(inverted)).toContain(
      `Mapped newer_robust back to the original units with ${ref}'s RobustScaler here: frame back, 50 rows × 7 columns.`,
    );
    const back = t.workspace.table("back").columns.find((c) => c.name === "age")!.values as Float64Array;
    back.forEach((v, i) =>
      Number.isNaN(ages[i]!) ? expect(v).toBeNaN() : expect(Math.abs(v - ages[i]!)).toBeLessThan(1e-9),
    );

    await run(preprocessCommand, ctx, "customers", "Binarizer", "threshold=40", "--columns", "age");
    const binarizer = t.workspace.jobs.jobs.at(-1)!.ref;
    await expect(run(invertCommand, ctx, binarizer, "customers")).rejects.toThrow(/Binarizer has no inverse_transform/);
    await t.workspace.evaluate("noAge = customers.drop({ columns: ['age'] })", ctx.signal, 80);
    await expect(run(applyCommand, ctx, ref, "noAge")).rejects.toThrow(
      `noAge has no column age: ${ref}'s RobustScaler was fitted on age, income.`,
    );
    await expect(run(applyCommand, ctx, ref)).rejects.toThrow("Which job, and which frame?");
  });

  it("says which jobs exist when the job is unknown", async () => {
    await expect(async () => run(fetchCommand, commandContext(t.workspace), "j99")).rejects.toThrow(
      'No job "j99" in this session.',
    );
  });

  it("stops following a log when the command is cancelled", async () => {
    const ctx = commandContext(t.workspace);
    ctx.abort.abort();
    await expect(run(logsCommand, ctx, "j1")).rejects.toThrow();
  });
});

describe("/health", () => {
  it("shows the service's status and region", async () => {
    const out = await run(healthCommand, commandContext(t.workspace));
    expect(text(out)).toContain("The service is healthy.");
    expect(text(out)).toContain("region local");
  });
});
