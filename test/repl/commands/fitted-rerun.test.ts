/**
 * What a job learnt and "what if": /fitted prints a job's fitted state per feature,
 * /fetch shows the first features of it, /rerun sends the same input with one parameter
 * changed and compares the two, /compare lays several jobs' ranges of a column side by
 * side. Against the real local service, on the sample frame (spend has outliers).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareCommand } from "../../../repl/commands/compare.js";
import { outliersCommand } from "../../../repl/commands/outliers.js";
import { COMMANDS } from "../../../repl/commands/registry.js";
import { complete } from "../../../repl/input/completion.js";
import { fetchCommand } from "../../../repl/commands/fetch.js";
import { fittedCommand } from "../../../repl/commands/fitted.js";
import { preprocessCommand } from "../../../repl/commands/preprocess.js";
import { rerunCommand } from "../../../repl/commands/rerun.js";
import type { Output, TableOutput } from "../../../repl/commands/types.js";
import { errorOutput } from "../../../repl/errors.js";
import { plainLines } from "../../../repl/format/plain-output.js";
import { percentiles } from "../../../src/display/render/plot-data.js";
import { commandContext, openTestWorkspace, run, texts, type TestWorkspace } from "../fixtures.js";

let t: TestWorkspace;
beforeAll(async () => {
  t = await openTestWorkspace();
});
afterAll(() => t.close());

function tables(output: Output): TableOutput[] {
  if (output.type === "table") return [output];
  if (output.type === "group") return output.items.flatMap(tables);
  return [];
}

/** A cell shows six significant digits. */
function expectSixDigits(cell: string | undefined, value: number): void {
  expect(Math.abs(Number(cell) - value)).toBeLessThanOrEqual(5e-6 * Math.abs(value));
}

/** numpy's linear percentile of the present values. */
function spendPercentiles(qs: readonly number[]): number[] {
  const column = t.workspace.table("customers").columns.find((c) => c.name === "spend");
  if (column?.kind !== "number") throw new Error("no spend");
  return percentiles(column.values, qs);
}

describe("/fitted, /fetch, /rerun, /compare", () => {
  it("/fitted prints RobustScaler's center_ and scale_ per feature, the params underneath", async () => {
    const ctx = commandContext(t.workspace, { interactive: false });
    await run(preprocessCommand, ctx, "customers", "RobustScaler", "--columns", "spend,age");
    const out = await run(fittedCommand, ctx, "j1");
    const [table] = tables(out);
    expect(table?.columns).toEqual(["feature", "center_", "scale_"]);
    expect(table?.rows.map((r) => r[0])).toEqual(["spend", "age"]);
    const [q25, median, q75] = spendPercentiles([25, 50, 75]);
    expect(Number(table?.rows[0]?.[1])).toBe(median);
    expectSixDigits(table?.rows[0]?.[2], q75! - q25!);
    expect(table?.footer).toContain("quantile_range=[25,75]");
    // A job named by a prefix of its id, as by its short name.
    const id = t.workspace.jobs.find("j1")!.id;
    expect(texts(await run(fittedCommand, ctx, id.slice(0, 6)))).toEqual(texts(out));
    await expect(run(fittedCommand, ctx, "j9")).rejects.toThrow(/No job "j9"/);
  });

  it("/fetch shows the first features of what the job learnt and points at /fitted", async () => {
    const ctx = commandContext(t.workspace, { interactive: false });
    const out = await run(fetchCommand, ctx, "j1");
    const learnt = tables(out).find((x) => x.title === "What j1 learnt");
    expect(learnt?.rows.map((r) => r[0])).toEqual(["spend", "age"]);
  });

  it("/rerun sends the input again with quantile_range changed and compares what each learnt", async () => {
    const ctx = commandContext(t.workspace, { interactive: false });
    const out = await run(rerunCommand, ctx, "j1", "quantile_range=10,90");
    expect(texts(ctx.emitted[0]!).join(" ")).toMatch(
      /^j2: RobustScaler \(quantile_range=10,90\) on customers sent: the input of j1 again, with quantile_range=10,90/,
    );
    expect(t.workspace.jobs.handle("j2")?.input?.id).toBe(t.workspace.jobs.handle("j1")?.input?.id);
    const [learnt, ranges] = tables(out);
    expect(learnt?.columns).toEqual(["feature", "center_ j1", "center_ j2", "scale_ j1", "scale_ j2"]);
    const [p10, p25, p75, p90] = spendPercentiles([10, 25, 75, 90]);
    const spend = learnt!.rows.find((r) => r[0] === "spend")!;
    expectSixDigits(spend[3], p75! - p25!);
    expectSixDigits(spend[4], p90! - p10!);
    // The first feature, before (the frame) and after each job.
    expect(ranges?.title).toBe("spend after each transform");
    expect(ranges?.rows.map((r) => r[0])).toEqual([
      "customers",
      "j1 RobustScaler on customers",
      "j2 RobustScaler (quantile_range=10,90) on customers",
    ]);
    expectSixDigits(ranges?.rows[0]?.[5], spendPercentiles([100])[0]!);
  });

  it("/rerun refuses a wrong parameter before sending, and asks what should change", async () => {
    const ctx = commandContext(t.workspace, { interactive: false });
    const before = t.workspace.jobs.jobs.length;
    await expect(run(rerunCommand, ctx, "j1", "quantile_rang=10,90")).rejects.toThrow(
      /RobustScaler has no parameter "quantile_rang" \(did you mean `quantile_range`\?\)/,
    );
    const nothing = await run(rerunCommand, ctx, "j1").catch(errorOutput);
    expect(texts(nothing).join(" ")).toMatch(/What should change in j1\?.*\/rerun j1 with_centering=/);
    expect(t.workspace.jobs.jobs.length).toBe(before);
  });

  it("/compare lays the ranges of a column after several jobs side by side", async () => {
    const ctx = commandContext(t.workspace, { interactive: false });
    await run(preprocessCommand, ctx, "customers", "StandardScaler", "--columns", "spend");
    const out = await run(compareCommand, ctx, "customers", "j3", "j2", "--column", "spend");
    const [table] = tables(out);
    expect(table?.columns).toEqual(["data", "min", "p1", "p50", "p99", "max", "missing"]);
    expect(table?.rows.map((r) => r[0])).toEqual([
      "customers",
      "j3 StandardScaler on customers",
      "j2 RobustScaler (quantile_range=10,90) on customers",
    ]);
    // After StandardScaler the median of spend is below 0: the outliers pull the mean up.
    expect(Number(table?.rows[1]?.[3])).toBeLessThan(0);
    const lines = plainLines(out, 150).join("\n");
    expect(lines).toContain("j2 RobustScaler (quantile_range=10,90) on customers");
    const wrong = await run(compareCommand, ctx, "j3", "--column", "segment").catch(errorOutput);
    expect(texts(wrong).join(" ")).toMatch(/no numeric column "segment".*Numeric columns: age, income, spend/);
  });
});

describe("/outliers", () => {
  it("counts the rows above a percentile and refits each job without them", async () => {
    const ctx = commandContext(t.workspace, { interactive: false });
    // j3 is StandardScaler on spend, j1 RobustScaler on spend and age (above).
    const out = await run(outliersCommand, ctx, "customers", "--percentile", "98", "--refit", "j3,j1");
    const [counts, standard, robust] = tables(out);
    const columns = ["spend", "age"].map((name) => {
      const c = t.workspace.table("customers").columns.find((x) => x.name === name);
      if (c?.kind !== "number") throw new Error(name);
      return c.values;
    });
    const limits = columns.map((v) => percentiles(v, [98])[0]!);
    const kept = columns[0]!.filter((_, row) => columns.every((v, i) => !(v[row]! > limits[i]!)));
    expect(counts?.title).toBe(`customers: ${200 - kept.length} of 200 rows above the 98th percentile of a column`);
    expect(counts?.rows.map((r) => [r[0], r[3]])).toEqual([
      ["spend", String(columns[0]!.filter((v) => v > limits[0]!).length)],
      ["age", String(columns[1]!.filter((v) => v > limits[1]!).length)],
    ]);
    // StandardScaler refit: the population std of spend over the rows kept.
    const mean = kept.reduce((a, b) => a + b, 0) / kept.length;
    const std = Math.sqrt(kept.reduce((a, b) => a + (b - mean) ** 2, 0) / kept.length);
    expect(standard?.title).toMatch(
      /^j3 StandardScaler on customers, and j4 fitted on customers without outliers \(b\d+\)$/,
    );
    const scale = standard!.columns.indexOf("scale_ j4");
    expectSixDigits(standard!.rows[0]![scale], std);
    expect(robust?.columns).toEqual(["feature", "center_ j1", "center_ j5", "scale_ j1", "scale_ j5"]);
    await expect(run(outliersCommand, ctx, "customers", "--percentile", "100")).rejects.toThrow(/between 0 and 100/);
  });
});

describe("completion", () => {
  it("offers numeric columns for --columns, adds no comma, and offers a job's parameters to /rerun", () => {
    const c = {
      commands: COMMANDS,
      context: t.workspace.completion(() => COMMANDS.map((x) => x.name)),
      jsNames: () => [],
    };
    const line = "/preprocess customers StandardScaler --columns ";
    expect(complete(line, c).candidates).toEqual(["age", "income", "spend", "visits", "rating"]);
    expect(complete(`${line}age,`, c).candidates).toEqual(["age,income", "age,spend", "age,visits", "age,rating"]);
    // One match: completed without a comma or a space, so the person types either.
    expect(complete(`${line}age,inc`, c).line).toBe(`${line}age,income`);
    expect(complete(`${line}age,income,sp`, c).line).toBe(`${line}age,income,spend`);
    expect(complete("/rerun j1 quantile_", c).line).toBe("/rerun j1 quantile_range=");
    expect(complete("/rerun j1 with_c", c).line).toBe("/rerun j1 with_centering=");
    expect(complete("/hist customers ", c).candidates).not.toContain("segment");
  });
});
