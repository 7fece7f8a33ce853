/**
 * PowerTransformer's lambdas against the exact optima of scikit-learn's objectives on real
 * columns (test/fixtures/power-optimum/make_fixture.py: mpmath at 50 digits, and the lambdas_
 * scikit-learn 1.2.1 fits). mdps's lambda must never be farther from the exact optimum than
 * scikit-learn's, for both methods, on every column; near λ = 0 too (diabetes s5 under
 * Box-Cox), and exactly at 0, where the transform is the log.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { fitTransform } from "../../src/core/engine/index.js";
import { brentMinimize } from "../../src/core/engine/brent.js";
import { refineLambda } from "../../src/core/engine/lambda-refine.js";
import { boxCoxObjectiveSlope } from "../../src/core/engine/power-slope.js";
import { boxCoxObjective } from "../../src/core/engine/power-functions.js";

type Method = "yeo-johnson" | "box-cox";

interface Optimum {
  shift: number;
  exact_lambda: string;
  sklearn_lambda: number;
  sklearn_distance: number;
}

interface Column {
  data_set: string;
  column: string;
  values: number[];
  "yeo-johnson": Optimum;
  "box-cox": Optimum;
}

const fixture = JSON.parse(
  readFileSync(new URL("../fixtures/power-optimum/fixture.json", import.meta.url), "utf8"),
) as { columns: Column[]; exact_zero_box_cox: { values: number[]; "box-cox": Optimum } };

/** The lambdas mdps fits, one fit per data set (columns are independent). */
function fittedLambdas(method: Method, columns: Column[]): number[] {
  const { fitted } = fitTransform(
    "PowerTransformer",
    { method, standardize: false },
    {
      names: columns.map((c) => c.column),
      columns: columns.map((c) => Float64Array.from(c.values, (v) => v + c[method].shift)),
    },
  );
  return fitted.lambdas_ as number[];
}

/** Distance to the exact optimum; Number(exact) rounds it by half an ulp at most. */
function distance(lambda: number, exact: string): number {
  return Math.abs(lambda - Number(exact));
}

const dataSets = [...new Set(fixture.columns.map((c) => c.data_set))];

describe.each(["yeo-johnson", "box-cox"] as const)("%s lambdas against the exact optimum", (method) => {
  it(`is never farther from it than scikit-learn's, on ${fixture.columns.length} real columns`, () => {
    const problems: string[] = [];
    let worst = 0;
    for (const dataSet of dataSets) {
      const columns = fixture.columns.filter((c) => c.data_set === dataSet);
      fittedLambdas(method, columns).forEach((lambda, j) => {
        const { exact_lambda: exact, sklearn_distance: theirs } = columns[j][method];
        const ours = distance(lambda, exact);
        worst = Math.max(worst, ours / Math.max(1, Math.abs(Number(exact))));
        if (!(ours <= theirs) || !(ours <= 1e-13 * Math.max(1, Math.abs(Number(exact))))) {
          problems.push(
            `${dataSet} ${columns[j].column}: mdps ${ours.toExponential(2)}, scikit-learn ${theirs.toExponential(2)}`,
          );
        }
      });
    }
    console.log(`${method}: largest distance to the exact optimum ${worst.toExponential(2)} (relative above |λ| = 1)`);
    expect(problems).toEqual([]);
  });
});

describe("Box-Cox lambda near and at 0", () => {
  const s5 = fixture.columns.find((c) => c.data_set === "diabetes" && c.column === "s5")!;

  it("diabetes s5: within 1e-14 of the exact optimum 0.0061301209…", () => {
    const [lambda] = fittedLambdas("box-cox", [s5]);
    expect(s5["box-cox"].exact_lambda.startsWith("0.0061301209")).toBe(true);
    expect(distance(lambda, s5["box-cox"].exact_lambda)).toBeLessThan(1e-14);
  });

  it("starting from exactly 0, the refinement still reaches the optimum", () => {
    const values = Float64Array.from(s5.values);
    const lambda = refineLambda(boxCoxObjectiveSlope(values), 0);
    expect(distance(lambda, s5["box-cox"].exact_lambda)).toBeLessThan(1e-14);
  });

  it("an exact optimum of 0 gives lambda 0 exactly and the log of every value", () => {
    const { values, "box-cox": optimum } = fixture.exact_zero_box_cox;
    const column = Float64Array.from(values);
    // scipy's search lands near 0, not on it (scikit-learn: 1.47e-8)
    expect(Math.abs(brentMinimize(boxCoxObjective(column), -2, 2))).toBeGreaterThan(1e-9);
    expect(optimum.exact_lambda).toBe("0");
    const { columns, fitted } = fitTransform(
      "PowerTransformer",
      { method: "box-cox", standardize: false },
      { names: ["x"], columns: [column] },
    );
    expect(fitted.lambdas_).toEqual([0]);
    expect(Array.from(columns[0])).toEqual(values.map(Math.log));
  });
});
