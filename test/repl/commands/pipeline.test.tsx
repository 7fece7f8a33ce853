/**
 * /pipeline against a real Workspace on Session.local(): the one-line step syntax and its
 * completion, a chain run to the end (piped mode waits), apply / save / apply from the
 * saved file, a failing step named, cancel, and the panel of a running pipeline.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as dfd from "danfojs-node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { pipelineCommand } from "../../../repl/commands/pipeline.js";
import { ReplError } from "../../../repl/errors.js";
import { parseSteps, splitSteps } from "../../../repl/commands/pipeline-syntax.js";
import { COMMANDS } from "../../../repl/commands/registry.js";
import { complete } from "../../../repl/input/completion.js";
import { PipelinePanel } from "../../../repl/ui/pipeline-panel.js";
import { render, type Rendered } from "../render.js";
import { commandContext, openTestWorkspace, run, texts, type TestWorkspace } from "../fixtures.js";

let t: TestWorkspace;
let view: Rendered | undefined;

function frame(rows: number, offset: number): dfd.DataFrame {
  const a = Array.from({ length: rows }, (_, i) => (i === 2 ? null : Math.exp(Math.sin(i + offset) + 1)));
  const b = Array.from({ length: rows }, (_, i) => Math.cos(i * 0.7 + offset) * 10 + 3);
  const c = Array.from({ length: rows }, (_, i) => ((i * 37 + offset) % 23) + 0.5);
  const name = Array.from({ length: rows }, (_, i) => `r${i}`);
  return new dfd.DataFrame({ a, name, b, c });
}

beforeAll(async () => {
  t = await openTestWorkspace();
  t.workspace.setFrame("train", frame(40, 0), { origin: "test" });
  t.workspace.setFrame("test", frame(15, 100), { origin: "test" });
});
afterEach(() => view?.unmount());
afterAll(() => t.close());

const completer = () => ({
  commands: COMMANDS,
  context: t.workspace.completion(() => COMMANDS.map((c) => c.name)),
  jsNames: () => [],
});

describe("the step syntax", () => {
  it("reads transforms, columns and params; | and ; both separate steps", () => {
    expect(splitSteps("A(a,b) | B(a;b) ; C")).toEqual(["A(a,b)", "B(a;b)", "C"]);
    expect(
      parseSteps(
        "powertransformer(a, b) | StandardScaler(a,b) with_mean=false ; QuantileTransformer(c) n_quantiles=10",
      ),
    ).toEqual([
      { type: "PowerTransformer", columns: ["a", "b"] },
      { type: "StandardScaler", params: { with_mean: false }, columns: ["a", "b"] },
      { type: "QuantileTransformer", params: { n_quantiles: 10 }, columns: ["c"] },
    ]);
    expect(parseSteps("MinMaxScaler feature_range=0,10")).toEqual([
      { type: "MinMaxScaler", params: { feature_range: [0, 10] } },
    ]);
  });

  it("names the step of a mistake, with did-you-mean", () => {
    expect(() => parseSteps("StandardScaler(a) | PowerTransfomer(b)")).toThrow(
      /^Step 2: Unknown transform "PowerTransfomer" \(did you mean `PowerTransformer`\?\)/,
    );
    expect(() => parseSteps("StandardScaler(a) | QuantileTransformer(b) n_quantile=5")).toThrow(
      /^Step 2: QuantileTransformer has no parameter "n_quantile" \(did you mean `n_quantiles`\?\)/,
    );
    expect(() => parseSteps("StandardScaler(a) | | MinMaxScaler")).toThrow("Step 2 is empty.");
    expect(() => parseSteps("StandardScaler(a, b")).toThrow(
      'Step 1 "StandardScaler(a, b" has a parenthesis that is not closed.',
    );
  });

  it("completes transforms, then columns inside the parentheses, then params and values", () => {
    const c = completer();
    expect(complete("/pipeline train Power", c).line).toBe("/pipeline train PowerTransformer ");
    // Numeric columns only (name is text), and no comma added after the one typed.
    expect(complete("/pipeline train PowerTransformer(a,", c).candidates).toEqual([
      "PowerTransformer(a,b",
      "PowerTransformer(a,c",
    ]);
    expect(complete("/pipeline train PowerTransformer(a,c", c).line).toBe("/pipeline train PowerTransformer(a,c");
    expect(complete("/pipeline train PowerTransformer(a,b) | Stan", c).line).toBe(
      "/pipeline train PowerTransformer(a,b) | StandardScaler ",
    );
    expect(complete("/pipeline train PowerTransformer(a,b) |Min", c).line).toBe(
      "/pipeline train PowerTransformer(a,b) |MinMaxScaler ",
    );
    expect(complete("/pipeline train QuantileTransformer(c) n_q", c).line).toBe(
      "/pipeline train QuantileTransformer(c) n_quantiles=",
    );
    expect(complete("/pipeline train PowerTransformer(a) method=", c).candidates).toEqual([
      "method=yeo-johnson",
      "method=box-cox",
    ]);
    expect(complete("/pipeline train StandardScaler(a) ", c).candidates).toContain("|");
  });
});

describe("/pipeline on the service", () => {
  it("fits the chain (piped mode waits), names each step's job, applies and saves the fitted pipeline", async () => {
    const ws = t.workspace;
    const ctx = commandContext(ws, { interactive: false });
    const out = await run(
      pipelineCommand,
      ctx,
      "train",
      "PowerTransformer(a,b)",
      "|",
      "StandardScaler(a,b)",
      ";",
      "QuantileTransformer(c)",
      "n_quantiles=20",
    );
    expect(texts(ctx.emitted[0]!)[0]).toMatch(
      /^p1: Pipeline\(PowerTransformer\(a, b\) \| StandardScaler\(a, b\) \| QuantileTransformer\(c\) n_quantiles=20\) on train started; step 1 is j\d+\.$/,
    );
    expect(texts(out)[0]).toMatch(/^p1 fitted: 3 steps on train\. \/fetch j\d+ brings its output back/);
    const labels = ws.jobs.jobs.map((j) => j.label);
    expect(labels).toEqual([
      "PowerTransformer on train (p1 step 1/3)",
      "StandardScaler on train (p1 step 2/3)",
      "QuantileTransformer on train (p1 step 3/3)",
    ]);
    const fitted = ws.pipelines.find("p1")!.fitted!;

    const applied = await run(pipelineCommand, ctx, "apply", "p1", "test");
    expect(texts(applied)[0]).toBe("Applied p1 (3 steps) to test here: frame test_p1, 15 rows × 4 columns.");
    expect(ws.frame("test_p1").values).toEqual(fitted.transform(ws.frame("test")).values);

    await run(pipelineCommand, ctx, "save", "p1", "scaler.json");
    const saved = JSON.parse(readFileSync(join(t.dir, "scaler.json"), "utf8")) as { steps: unknown[] };
    expect(saved.steps).toHaveLength(3);
    await run(pipelineCommand, ctx, "apply", "scaler.json", "test", "as", "again");
    expect(ws.frame("again").values).toEqual(ws.frame("test_p1").values);
  });

  it("a step that fails on the service stops the chain, naming the step", async () => {
    const ctx = commandContext(t.workspace, { interactive: false });
    const failing = run(
      pipelineCommand,
      ctx,
      "train",
      "StandardScaler(b)",
      "|",
      "PowerTransformer(b)",
      "method=box-cox",
      "|",
      "MinMaxScaler(b)",
    );
    const error = (await failing.catch((e: unknown) => e)) as ReplError;
    expect(error).toBeInstanceOf(ReplError);
    expect(error.message).toMatch(/^p2 stopped: step 2 of 3 \(PowerTransformer\) failed: .*strictly positive/);
    expect(error.hint).toMatch(/^No later step was started\. \/logs j\d+ shows the step's log/);
    expect(t.workspace.pipelines.find("p2")!.steps.map((s) => s.status)).toEqual(["succeeded", "failed", "pending"]);
    await expect(run(pipelineCommand, ctx, "apply", "p2", "test")).rejects.toThrow(/^p2 did not finish: /);
  });

  it("refuses a column the frame does not have before anything is sent", async () => {
    const ctx = commandContext(t.workspace, { interactive: false });
    const jobs = t.workspace.jobs.jobs.length;
    await expect(run(pipelineCommand, ctx, "train", "StandardScaler(a)", "|", "MinMaxScaler(B)")).rejects.toThrow(
      /steps\[2\]\.columns: step 2: there is no column "B".*did you mean `b`/,
    );
    expect(t.workspace.jobs.jobs.length).toBe(jobs);
  });

  it("runs in the background at the prompt, with a panel row per step, until /pipeline cancel", async () => {
    const ws = t.workspace;
    const big = new dfd.DataFrame({
      x: Array.from({ length: 400_000 }, (_, i) => Math.sin(i) * 10 + i / 1e5),
    });
    ws.setFrame("big", big, { origin: "test" });
    const ctx = commandContext(ws, { interactive: true });
    const out = await run(
      pipelineCommand,
      ctx,
      "big",
      "StandardScaler(x)",
      "|",
      "PowerTransformer(x)",
      "|",
      "MinMaxScaler(x)",
    );
    expect(texts(out)[1]).toMatch(/^\/pipeline cancel p\d+ stops it/);
    const tracked = ws.pipelines.running[0]!;
    view = render(<PipelinePanel pipelines={ws.pipelines.snapshot()} width={120} />);
    expect(view.screen()).toMatch(new RegExp(`Pipeline ${tracked.ref} 3 steps on big`));
    expect(view.screen()).toMatch(/3\/3 MinMaxScaler\(x\)\s+pending/);
    const cancelled = await run(pipelineCommand, ctx, "cancel", tracked.ref);
    expect(texts(cancelled)[0]).toMatch(
      new RegExp(`^Cancelled ${tracked.ref} at step [12] of 3; no later step was started\\.$`),
    );
    const ended = ws.pipelines.find(tracked.ref)!;
    expect(ended.finishedAt).toBeDefined();
    expect(ended.steps.at(-1)!.status).toBe("pending");
    view.rerender(<PipelinePanel pipelines={ws.pipelines.snapshot()} width={120} />);
    expect(view.screen()).not.toMatch(new RegExp(`Pipeline ${tracked.ref}`));
  }, 60_000);
});
