import { describe, expect, it } from "vitest";
import { paramInfo, parseParams, readValue, resolveTransform } from "../../../repl/commands/transform-params.js";
import { PREPROCESSING_TYPES } from "../../../src/core/contract/transform-types.js";
import { paramsSchemas } from "../../../src/core/contract/params.js";

describe("transform parameters", () => {
  it("lists each transform's parameters from the contract's schemas", () => {
    for (const type of PREPROCESSING_TYPES) {
      expect(
        paramInfo(type)
          .map((p) => p.name)
          .sort(),
      ).toEqual(Object.keys(paramsSchemas[type].shape).sort());
    }
    expect(paramInfo("Normalizer").find((p) => p.name === "norm")).toMatchObject({
      type: "string",
      values: ["l1", "l2", "max"],
      defaultValue: "l2",
    });
    expect(paramInfo("QuantileTransformer").find((p) => p.name === "random_state")?.type).toBe("integer|null");
  });

  it("reads typed values and validates them with zod before anything is sent", () => {
    expect(parseParams("MinMaxScaler", ["feature_range=-1,1", "clip=true"])).toEqual({
      feature_range: [-1, 1],
      clip: true,
    });
    expect(parseParams("RobustScaler", ["quantile_range=[10,90]"])).toEqual({ quantile_range: [10, 90] });
    expect(
      parseParams("QuantileTransformer", ["n_quantiles=100", "random_state=null", "output_distribution=normal"]),
    ).toEqual({
      n_quantiles: 100,
      random_state: null,
      output_distribution: "normal",
    });
    expect(() => parseParams("MinMaxScaler", ["feature_range=1,0"])).toThrow(
      "Minimum of desired feature range must be smaller than maximum.",
    );
    expect(() => parseParams("QuantileTransformer", ["n_quantiles=2.5"])).toThrow("n_quantiles");
    expect(() => parseParams("Normalizer", ["norm=l3"])).toThrow("norm");
    expect(() => parseParams("StandardScaler", ["with_mean=yes"])).toThrow("with_mean");
    expect(() => parseParams("Binarizer", ["treshold=1"])).toThrow('Binarizer has no parameter "treshold"');
    expect(() => parseParams("Binarizer", ["1"])).toThrow("key=value");
  });

  it("accepts transform names in any case", () => {
    expect(resolveTransform("standardscaler")).toBe("StandardScaler");
    expect(() => resolveTransform("Scaler")).toThrow("Unknown transform");
    expect(readValue("abc", "number")).toBe("abc");
  });
});
