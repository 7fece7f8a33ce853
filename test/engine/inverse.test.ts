/**
 * inverseTransformWith beyond the golden probes (golden.test.ts compares those with
 * scikit-learn's inverse_transform): what has no inverse says so, bad input is named,
 * missing values and signed zeros come back as scikit-learn gives them, and a transform
 * followed by its inverse gives the data back.
 */
import { describe, expect, it } from "vitest";
import { PREPROCESSING_TYPES } from "../../src/core/contract/transform-types.js";
import { fitTransform, inverseTransformWith, transformWith } from "../../src/core/engine/index.js";
import { seededRandom } from "../../src/core/sample-data/seeded-random.js";

const random = seededRandom(11);
const names = ["a", "b"];
const data = {
  names,
  columns: [
    Float64Array.from({ length: 500 }, () => 1 + random() * 20),
    Float64Array.from({ length: 500 }, () => Math.exp(random() * 5)),
  ],
};

describe("inverseTransformWith", () => {
  it.each([
    [
      "Binarizer",
      /Binarizer has no inverse_transform \(scikit-learn's has none either\): it keeps only which side of the threshold/,
    ],
    ["Normalizer", /Normalizer has no inverse_transform .*: it does not keep the norm it divided each row by/],
  ] as const)("%s has none, and says why", (type, message) => {
    const { fitted, columns } = fitTransform(type, {}, data);
    expect(() => inverseTransformWith(fitted, { names, columns })).toThrow(message);
  });

  const invertible = PREPROCESSING_TYPES.filter((t) => t !== "Binarizer" && t !== "Normalizer");

  it.each(invertible)("%s: the inverse of the transform gives the data back", (type) => {
    const params = type === "PowerTransformer" ? { method: "box-cox" } : {};
    const { fitted } = fitTransform(type, params as never, data);
    const back = inverseTransformWith(fitted, { names, columns: transformWith(fitted, data) });
    back.forEach((col, c) => {
      col.forEach((x, i) =>
        expect(Math.abs(x - data.columns[c][i])).toBeLessThanOrEqual(1e-9 * Math.abs(data.columns[c][i])),
      );
    });
  });

  it.each(invertible)("%s: refuses infinity, naming the column and row; keeps NaN", (type) => {
    const { fitted } = fitTransform(type, {}, data);
    const scaled = transformWith(fitted, data);
    scaled[1][3] = NaN;
    expect(Number.isNaN(inverseTransformWith(fitted, { names, columns: scaled })[1][3])).toBe(true);
    scaled[1][7] = -Infinity;
    expect(() => inverseTransformWith(fitted, { names, columns: scaled })).toThrow(/"b".*row 8/);
  });

  it("wants the fitted feature columns, in order", () => {
    const { fitted, columns } = fitTransform("StandardScaler", {}, data);
    expect(() => inverseTransformWith(fitted, { names: ["b", "a"], columns })).toThrow(
      /The data has feature columns \[b, a\] but the StandardScaler was fitted on \[a, b\]/,
    );
  });

  it("skips a step scikit-learn skips: without with_mean, -0 stays -0", () => {
    const { fitted } = fitTransform("StandardScaler", { with_mean: false }, data);
    const back = inverseTransformWith(fitted, { names, columns: [Float64Array.of(-0), Float64Array.of(-0)] });
    expect(Object.is(back[0][0], -0)).toBe(true);
    const centred = fitTransform("StandardScaler", {}, data).fitted;
    const shifted = inverseTransformWith(centred, { names, columns: [Float64Array.of(0), Float64Array.of(0)] });
    expect(shifted[0][0]).toBe(Number(centred.mean_![0]));
  });
});
