/**
 * Box-Cox lambda on columns whose transformed values reach 1e19-1e30. The
 * exact minimisers (mpmath, 50 digits) and scipy's Brent lambdas come from
 * test/fixtures/boxcox-precision/make_fixture.py; the engine's lambda must be at least
 * as close to the exact one as scipy's (and within Brent's own tolerance).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { refineLambda } from "../../src/core/engine/lambda-refine.js";
import { boxCoxObjectiveSlope } from "../../src/core/engine/power-slope.js";
import { brentMinimize } from "../../src/core/engine/brent.js";
import { boxCoxObjective } from "../../src/core/engine/power-functions.js";

interface Column {
  values: number[];
  exact_lambda: string;
  scipy_brent_lambda: number;
  scipy_relative_error: number;
  largest_transformed_value: number;
}

const fixture = JSON.parse(
  readFileSync(new URL("../fixtures/boxcox-precision/fixture.json", import.meta.url), "utf8"),
) as { columns: Column[] };

describe("Box-Cox lambda against the exact optimum", () => {
  fixture.columns.forEach((column, i) => {
    it(`column ${i} (lambda ${column.exact_lambda.slice(0, 8)}, values to ${column.largest_transformed_value.toExponential(1)})`, () => {
      const exact = Number(column.exact_lambda);
      const values = Float64Array.from(column.values);
      const lambda = refineLambda(boxCoxObjectiveSlope(values), brentMinimize(boxCoxObjective(values), -2, 2));
      const relative = Math.abs(lambda - exact) / exact;
      console.log(
        `column ${i}: engine ${relative.toExponential(2)}, scipy ${column.scipy_relative_error.toExponential(2)}`,
      );
      expect(relative).toBeLessThanOrEqual(column.scipy_relative_error);
      expect(relative).toBeLessThan(1e-12);
    });
  });
});
