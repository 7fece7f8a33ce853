/**
 * Which transforms accept missing values is a field of each registry entry; the input
 * checks read it. Binarizer is imported first on purpose: the import cycle
 * (transform -> input-checks -> registry -> transform) must load from any entry point.
 */
import { fitTransformBinarizer } from "../../src/engine/binarizer.js";
import { describe, expect, it } from "vitest";
import { PREPROCESSING_TYPES } from "../../src/contract/transform-types.js";
import { EngineError } from "../../src/engine/engine-error.js";
import { fitTransform } from "../../src/engine/index.js";
import { acceptsMissing, checkValues } from "../../src/engine/input-checks.js";
import { transforms } from "../../src/engine/registry.js";

const withMissing = { names: ["a"], columns: [Float64Array.of(1, Number.NaN, 3)] };

describe("missing values, by registry entry", () => {
  it("are refused by Binarizer and Normalizer only, as in scikit-learn", () => {
    const refusing = PREPROCESSING_TYPES.filter((t) => !transforms[t].allowsMissing);
    expect(refusing).toEqual(["Binarizer", "Normalizer"]);
    for (const type of PREPROCESSING_TYPES) expect(acceptsMissing(type)).toBe(transforms[type].allowsMissing);
  });

  it("make checkValues throw, naming the cell, exactly when the entry refuses them", () => {
    for (const type of PREPROCESSING_TYPES) {
      const check = () => checkValues(type, withMissing);
      if (transforms[type].allowsMissing) expect(check).not.toThrow();
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
