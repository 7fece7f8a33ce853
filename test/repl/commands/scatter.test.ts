import { afterAll, beforeAll, expect, it } from "vitest";
import { scatterCommand } from "../../../repl/commands/scatter.js";
import { scatterGrid } from "../../../repl/format/scatter-grid.js";
import { commandContext, openTestWorkspace, run, texts, type TestWorkspace } from "../fixtures.js";

let t: TestWorkspace;
beforeAll(async () => {
  t = await openTestWorkspace();
});
afterAll(() => t.close());

it("draws a density grid: every row in a cell, the outlier in a corner", () => {
  const x = Float64Array.from([0, 0, 0, 0, 1, 10]);
  const y = Float64Array.from([0, 0, 0, 0, 1, 10]);
  const lines = scatterGrid({ x, y, width: 10, height: 5, xName: "x", yName: "y" });
  expect(lines[0]).toMatch(/^10 │ {9}\S$/); // the outlier, top right
  expect(lines[4]).toMatch(/^ 0 │@/); // four rows at the origin: the darkest shade
  expect(lines).toContain("y against x: 6 rows");
});

it("marks cells by a column's letters and clips to percentiles", async () => {
  const ctx = commandContext(t.workspace);
  const out = await run(scatterCommand, ctx, "customers", "age", "income", "--color", "segment", "--clip", "0,99");
  const text = texts(out).join("\n");
  expect(text).toMatch(/income against age: \d+ rows \(rows inside p0-p99 of both: \d+ of 200\)/);
  expect(text).toMatch(/A \S+ {2}B \S+/);
  await expect(run(scatterCommand, ctx, "customers", "age", "height")).rejects.toThrow(
    'customers has no column "height".',
  );
  await expect(run(scatterCommand, ctx, "customers", "age", "income", "--clip", "99,1")).rejects.toThrow(
    "--clip takes two percentiles",
  );
});
