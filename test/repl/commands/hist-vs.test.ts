/** /hist --vs names both panels after their frames (and the job that made a result); --shared-x bins both over one range. */
import * as dfd from "danfojs-node";
import { afterAll, beforeAll, expect, it } from "vitest";
import { histCommand } from "../../../repl/commands/hist.js";
import { commandContext, openTestWorkspace, run, type TestWorkspace } from "../fixtures.js";

let t: TestWorkspace;
beforeAll(async () => {
  t = await openTestWorkspace();
  t.workspace.setFrame("standard", new dfd.DataFrame({ x: [-1, 0, 0, 1, 10] }), {
    origin: "j1 StandardScaler on raw",
    job: "j1",
    parent: "raw",
  });
  t.workspace.setFrame("robust", new dfd.DataFrame({ x: [-0.5, 0, 0.2, 0.5, 40] }), {
    origin: "j2 RobustScaler on raw",
    job: "j2",
    parent: "raw",
  });
});
afterAll(() => t.close());

it("labels the two results of --vs by their names, each with its job", async () => {
  const out = await run(histCommand, commandContext(t.workspace), "standard", "x", "--vs", "robust");
  if (out.type !== "histogram") throw new Error(out.type);
  expect(out.panels.map((p) => p.label)).toEqual([
    "standard.x (j1 StandardScaler on raw)",
    "robust.x (j2 RobustScaler on raw)",
  ]);
  // Each panel over its own range.
  expect(out.panels.map((p) => [p.bins[0]!.from, p.bins.at(-1)!.to])).toEqual([
    [-1, 10],
    [-0.5, 40],
  ]);
});

it("--shared-x bins both panels over the same range, from the smallest to the largest value of either", async () => {
  const out = await run(
    histCommand,
    commandContext(t.workspace),
    "standard",
    "x",
    "--vs",
    "robust",
    "--shared-x",
    "--bins",
    "4",
  );
  if (out.type !== "histogram") throw new Error(out.type);
  for (const panel of out.panels) {
    expect(panel.bins.map((b) => b.from)).toEqual([-1, 9.25, 19.5, 29.75]);
    expect(panel.bins.at(-1)!.to).toBe(40);
  }
  expect(out.panels.map((p) => p.bins.map((b) => b.count))).toEqual([
    [4, 1, 0, 0],
    [4, 0, 0, 1],
  ]);
});
