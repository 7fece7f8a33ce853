import { describe, expect, it } from "vitest";
import { didYouMean, editDistance, nearestName } from "../../src/core/contract/nearest-name.js";
import { checkParams } from "../../src/core/contract/param-issues.js";
import { PREPROCESSING_TYPES } from "../../src/core/contract/transform-types.js";

describe("nearestName", () => {
  it("prefers a name that differs only in case, then the closest by edit distance", () => {
    expect(nearestName("Proline", ["alcohol", "proline", "Prolin"])).toBe("proline");
    expect(nearestName("StandardScalar", PREPROCESSING_TYPES)).toBe("StandardScaler");
    expect(nearestName("standardscaler", PREPROCESSING_TYPES)).toBe("StandardScaler");
    expect(nearestName("n_quantile", ["n_quantiles", "subsample", "copy"])).toBe("n_quantiles");
    expect(nearestName("with_means", ["with_mean", "with_std", "copy"])).toBe("with_mean");
    expect(nearestName("traim", ["train", "test"])).toBe("train");
    expect(nearestName("lod", ["load", "logs", "save"])).toBe("load");
    expect(nearestName("qu", ["du", "q", "quit"])).toBe("q");
  });

  it("says nothing when the name is right or nothing is close", () => {
    expect(nearestName("proline", ["proline"])).toBeUndefined();
    expect(nearestName("zebra", ["alcohol", "proline"])).toBeUndefined();
    expect(nearestName("x", [])).toBeUndefined();
    expect(didYouMean("Proline", ["proline"])).toBe(" (did you mean `proline`?)");
    expect(didYouMean("zebra", ["proline"])).toBe("");
  });

  it("counts an adjacent swap as one edit", () => {
    expect(editDistance("nrom", "norm")).toBe(1);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("kitten", "sitting")).toBe(3);
  });
});

describe("checkParams", () => {
  it("names the nearest transform, parameter and enum value", () => {
    expect(checkParams("StandardScalar", {})[0]?.message).toMatch(/did you mean `StandardScaler`\?/);
    const quantile = checkParams("QuantileTransformer", { n_quantile: 10 });
    expect(quantile[0]).toMatchObject({ field: "params.n_quantile" });
    expect(quantile[0]?.message).toMatch(/did you mean `n_quantiles`\?/);
    expect(checkParams("StandardScaler", { with_means: false })[0]?.message).toMatch(/did you mean `with_mean`\?/);
    expect(checkParams("Normalizer", { norm: "L2" })[0]).toMatchObject({
      field: "params.norm",
      message: expect.stringMatching(/did you mean `l2`\?/) as unknown,
    });
    expect(checkParams("StandardScaler", { with_mean: false })).toEqual([]);
  });
});
