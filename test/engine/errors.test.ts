/**
 * What scikit-learn refuses, we refuse: parameter errors at submit time (the zod schemas
 * the service and client share) and data errors at run time (EngineError naming the
 * column and saying how to fix it). Cases and scikit-learn's messages: errors.json.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { paramsSchemas } from "../../src/core/contract/params.js";
import { PREPROCESSING_TYPES } from "../../src/core/contract/transform-types.js";
import { EngineError, fitTransform, transformWith } from "../../src/core/engine/index.js";
import { featuresOf, loadErrorCases } from "./golden.js";

const cases = loadErrorCases();

describe("parameters scikit-learn rejects are rejected by the schemas", () => {
  for (const c of cases.filter((x) => x.kind === "params")) {
    it(`${c.name} (${c.sklearn_error.split(":")[0]})`, () => {
      expect(paramsSchemas[c.type].safeParse(c.params).success).toBe(false);
      expect(() => fitTransform(c.type, c.params as never, { names: ["a"], columns: [Float64Array.of(1, 2)] })).toThrow(
        /^Invalid \w+ parameters: /,
      );
    });
  }

  it("names the field and the reason", () => {
    const check = (type: keyof typeof paramsSchemas, params: unknown, field: RegExp) => {
      const result = paramsSchemas[type].safeParse(params);
      expect(result.success).toBe(false);
      const paths = result.error!.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
      expect(paths).toMatch(field);
    };
    check("StandardScaler", { with_means: true }, /with_means/);
    check("MinMaxScaler", { feature_range: [2, 1] }, /feature_range: Minimum of desired feature range must be smaller/);
    check("RobustScaler", { quantile_range: [0, 101] }, /quantile_range: Invalid quantile range/);
    check("QuantileTransformer", { n_quantiles: 2000, subsample: 1000 }, /n_quantiles: The number of quantiles cannot/);
  });

  it("accepts what scikit-learn accepts at the edges", () => {
    expect(paramsSchemas.RobustScaler.safeParse({ quantile_range: [50, 50] }).success).toBe(true);
    expect(paramsSchemas.RobustScaler.safeParse({ quantile_range: [0, 100] }).success).toBe(true);
    expect(paramsSchemas.QuantileTransformer.safeParse({ n_quantiles: 1000, subsample: 1000 }).success).toBe(true);
    expect(paramsSchemas.QuantileTransformer.safeParse({ random_state: 2 ** 32 - 1 }).success).toBe(true);
    expect(paramsSchemas.MinMaxScaler.safeParse({ feature_range: [-1e-9, 0] }).success).toBe(true);
    expect(paramsSchemas.Binarizer.safeParse({ threshold: -3 }).success).toBe(true);
  });
});

describe("defaults are scikit-learn's", () => {
  const file = new URL("../fixtures/sklearn/defaults.json", import.meta.url);
  const defaults = JSON.parse(readFileSync(file, "utf8")) as {
    cases: { type: keyof typeof paramsSchemas; params: Record<string, unknown> }[];
  };
  for (const { type, params } of defaults.cases) {
    it(type, () => expect(paramsSchemas[type].parse({})).toEqual(params));
  }
});

describe("data scikit-learn rejects fails with an EngineError naming the column", () => {
  for (const c of cases.filter((x) => x.kind === "data")) {
    it(`${c.name} (${c.sklearn_error.split("\n")[0]})`, () => {
      let error: unknown;
      try {
        fitTransform(c.type, c.params as never, featuresOf(c as Required<typeof c>));
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(EngineError);
      const engineError = error as EngineError;
      if (c.column) {
        expect(engineError.column).toBe(c.column);
        expect(engineError.message).toContain(`"${c.column}"`);
      }
      // Every message says what to do, not only what is wrong.
      expect(engineError.message).toMatch(/: (use|replace|fill|drop|subtract|upload|choose|shift|check)/i);
    });
  }
});

describe("EngineError messages", () => {
  const one = (values: number[], name = "price") => ({ names: [name], columns: [Float64Array.from(values)] });
  const message = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      expect(e).toBeInstanceOf(EngineError);
      return (e as Error).message;
    }
    throw new Error("did not throw");
  };

  it("box-cox on non-positive data names the column, row and value", () => {
    expect(message(() => fitTransform("PowerTransformer", { method: "box-cox" }, one([3, 2, -1.5])))).toBe(
      'Column "price" has the value -1.5 at row 3; the box-cox method needs strictly positive data: use method "yeo-johnson", or shift the column above 0.',
    );
  });

  it("NaN given to Normalizer and Binarizer", () => {
    expect(message(() => fitTransform("Normalizer", {}, one([1, NaN])))).toMatch(
      /^Column "price" has a missing value at row 2; Normalizer does not accept missing values/,
    );
    expect(message(() => fitTransform("Binarizer", {}, one([NaN])))).toMatch(
      /Binarizer does not accept missing values/,
    );
  });

  it("infinity, for every transform, also in transformWith", () => {
    expect(message(() => fitTransform("MinMaxScaler", {}, one([1, -Infinity])))).toMatch(
      /^Column "price" holds -infinity at row 2; MinMaxScaler accepts only finite numbers/,
    );
    const { fitted } = fitTransform("RobustScaler", {}, one([1, 2, 3]));
    expect(message(() => transformWith(fitted, one([Infinity])))).toMatch(/holds infinity at row 1/);
  });

  it("zero rows and zero columns", () => {
    expect(message(() => fitTransform("StandardScaler", {}, one([])))).toMatch(/0 rows/);
    expect(message(() => fitTransform("StandardScaler", {}, { names: [], columns: [] }))).toMatch(
      /at least one feature column/,
    );
  });

  it("a fitted state that is not one", () => {
    expect(message(() => transformWith({ type: "Nope" } as never, one([1])))).toMatch(
      /^The fitted state is not valid: /,
    );
    const { fitted } = fitTransform("QuantileTransformer", {}, one([1, 2, 3]));
    expect(message(() => transformWith({ ...fitted, quantiles_: [[0, 1]] }, one([1])))).toMatch(
      /quantiles_\[0\] has 2 entries for 3 feature columns|quantiles_\[0\] has 2 entries/,
    );
  });
});

describe("every transform refuses infinity wherever it is, also in its fused first pass", () => {
  for (const type of PREPROCESSING_TYPES) {
    for (const bad of [Infinity, -Infinity]) {
      it(`${type} with ${bad}`, () => {
        const b = Float64Array.from([1, 2, 3, 4, 5]);
        b[3] = bad;
        const features = { names: ["a", "b"], columns: [Float64Array.from([3, 1, 2, 5, 4]), b] };
        let error: unknown;
        try {
          fitTransform(type, {}, features);
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(EngineError);
        expect((error as EngineError).column).toBe("b");
        expect((error as EngineError).row).toBe(3);
        expect((error as Error).message).toContain(`holds ${bad > 0 ? "" : "-"}infinity at row 4`);
      });
    }
  }

  for (const norm of ["l1", "l2", "max"] as const) {
    it(`Normalizer (${norm}) refuses NaN`, () => {
      const features = { names: ["a", "b"], columns: [Float64Array.of(1, 2, 3), Float64Array.of(4, NaN, 6)] };
      expect(() => fitTransform("Normalizer", { norm }, features)).toThrow(/Column "b" has a missing value at row 2/);
    });
  }

  it("an overflowing sum is not mistaken for an infinity (scikit-learn lets it through too)", () => {
    const big = { names: ["a"], columns: [Float64Array.of(1e308, 1e308)] };
    const [scaled] = fitTransform("StandardScaler", {}, big).columns;
    expect(Array.from(scaled).every(Number.isNaN)).toBe(true); // numpy: mean inf, var NaN
    const rows = { names: ["a", "b"], columns: [Float64Array.of(1e200, 3), Float64Array.of(1e200, 4)] };
    const [a, b] = fitTransform("Normalizer", {}, rows).columns;
    expect([a[0], b[0]]).toEqual([0, 0]); // x / inf
    // an ordinary row: x times the rounded 1/5, within an ulp of the quotient (kernels.wat)
    expect(Math.abs(a[1] - 0.6)).toBeLessThanOrEqual(Number.EPSILON * 0.6);
    expect(Math.abs(b[1] - 0.8)).toBeLessThanOrEqual(Number.EPSILON * 0.8);
  });
});
