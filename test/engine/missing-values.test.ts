/**
 * Which transforms accept missing values is the contract's (allowsMissing); the engine's
 * input checks and the client's checks before sending both read it. Binarizer is imported
 * first on purpose: a transform module must load from any entry point.
 */
import { fitTransformBinarizer } from "../../src/core/engine/binarizer.js";
import { describe, expect, it } from "vitest";
import { PREPROCESSING_TYPES, allowsMissing } from "../../src/core/contract/transform-types.js";
import { EngineError } from "../../src/core/engine/engine-error.js";
import { fitTransform } from "../../src/core/engine/index.js";
import { checkValues } from "../../src/core/engine/input-checks.js";

const withMissing = { names: ["a"], columns: [Float64Array.of(1, Number.NaN, 3)] };

describe("missing values, as the contract's allowsMissing says", () => {
  it("are refused by Binarizer and Normalizer only, as in scikit-learn", () => {
    const refusing = PREPROCESSING_TYPES.filter((t) => !allowsMissing(t));
    expect(refusing).toEqual(["Binarizer", "Normalizer"]);
  });

  it("make checkValues throw, naming the cell, exactly when the entry refuses them", () => {
    for (const type of PREPROCESSING_TYPES) {
      const check = () => checkValues(type, withMissing);
      if (allowsMissing(type)) expect(check).not.toThrow();
      else expect(check).toThrow(EngineError);
    }
    expect(() => checkValues("Normalizer", withMissing)).toThrow(
      /^Column "a" has a missing value at row 2; Normalizer does not accept missing values/,
    );
  });

  it("stay missing in the output of a transform that allows them", () => {
    const { columns } = fitTransform("StandardScaler", {}, withMissing);
    expect(Number.isNaN(columns[0][1])).toBe(true);
    expect(() => fitTransformBinarizer({ threshold: 0, copy: true }, withMissing)).toThrow(/row 2; Binarizer/);
  });
});
