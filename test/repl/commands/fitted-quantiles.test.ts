/**
 * /fitted on a QuantileTransformer job: its quantiles_ as a table of each feature's value
 * at each reference, the middle rows elided, checked against numpy's percentiles of the
 * same column (scikit-learn fits quantiles_ with np.nanpercentile at references_ × 100).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fittedCommand } from "../../../repl/commands/fitted.js";
import { preprocessCommand } from "../../../repl/commands/preprocess.js";
import type { Output, TableOutput } from "../../../repl/commands/types.js";
import { quantileTable } from "../../../repl/format/quantile-table.js";
import { percentiles } from "../../../src/display/render/plot-data.js";
import type { FittedStateJson } from "../../../src/index.js";
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

describe("/fitted on QuantileTransformer", () => {
  it("shows quantiles_ as references × features, the first and last five rows", async () => {
    const ctx = commandContext(t.workspace, { interactive: false });
    await run(preprocessCommand, ctx, "customers", "QuantileTransformer", "n_quantiles=50", "--columns", "spend,age");
    const out = await run(fittedCommand, ctx, "j1");
    const [grid] = tables(out);
    const said = texts(out).join("\n");
    expect(said).toContain("What j1 learnt: QuantileTransformer (n_quantiles=50) on customers");
    expect(said).toContain("n_quantiles_ 50");
    expect(said).not.toMatch(/quantiles_ \[|keeps no statistic/); // the grid is shown, not its shape
    expect(grid?.columns).toEqual(["references_", "spend", "age"]);
    expect(grid?.rows).toHaveLength(11);
    expect(grid?.rows[5]).toEqual(["…", "…", "…"]);
    expect(grid?.footer).toBe("40 rows in the middle left out");
    expect(grid?.title).toContain("50 quantiles × 2 features");
    const column = (name: string) => {
      const c = t.workspace.table("customers").columns.find((x) => x.name === name);
      if (c?.kind !== "number") throw new Error(`no ${name}`);
      return c.values;
    };
    const references = [0, 1, 2, 3, 4, 45, 46, 47, 48, 49].map((i) => i / 49);
    const shown = grid!.rows.filter((r) => r[0] !== "…");
    shown.forEach((row, i) => {
      expect(Number(row[0])).toBeCloseTo(references[i]!, 5);
      const [spend] = percentiles(column("spend"), [references[i]! * 100]);
      const [age] = percentiles(column("age"), [references[i]! * 100]);
      expect(Math.abs(Number(row[1]) - spend!)).toBeLessThanOrEqual(5e-6 * Math.abs(spend!));
      expect(Math.abs(Number(row[2]) - age!)).toBeLessThanOrEqual(5e-6 * Math.abs(age!) + 1e-12);
    });
  });

  it("shows every row of a short grid, and nothing for a transform without one", () => {
    const fitted = {
      type: "QuantileTransformer",
      params: {},
      feature_names_in_: ["a", "b"],
      n_features_in_: 2,
      n_quantiles_: 2,
      quantiles_: [
        [1, 5],
        [10, 50],
      ],
      references_: [0, 1],
    } as unknown as FittedStateJson;
    expect(quantileTable(fitted)?.rows).toEqual([
      ["0", "1", "10"],
      ["1", "5", "50"],
    ]);
    const scaler = { type: "StandardScaler", params: {}, feature_names_in_: ["a"], n_features_in_: 1, mean_: [1] };
    expect(quantileTable(scaler as unknown as FittedStateJson)).toBeUndefined();
  });
});
