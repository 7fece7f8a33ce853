/** Fitted state in a service's own shape, read by meaning and checked with the engine's schemas. */
import { describe, expect, it } from "vitest";
import { attributeKey, readFittedState } from "../../src/session/fitted-reader.js";

const context = { type: "StandardScaler" as const, params: {}, featureColumns: ["x", "y"] };

describe("readFittedState", () => {
  it("reads a name in any case, with or without the underscore", () => {
    expect(["mean_", "Mean", "MEAN", "mean", "data_min_", "DataMin"].map(attributeKey)).toEqual([
      "mean",
      "mean",
      "mean",
      "mean",
      "datamin",
      "datamin",
    ]);
    const reading = readFittedState(
      { fitted_parameters: { mean_: [1, 2], VAR: [4, 9], scale: [2, 3], n_samples_seen_: 5 } },
      context,
    );
    expect(reading).toMatchObject({
      fitted: {
        type: "StandardScaler",
        params: { with_mean: true, with_std: true },
        feature_names_in_: ["x", "y"],
        n_features_in_: 2,
        mean_: [1, 2],
        var_: [4, 9],
        scale_: [2, 3],
        n_samples_seen_: [5, 5],
      },
    });
  });

  it("reads one object per feature column, under another container name", () => {
    const reading = readFittedState(
      {
        params: {
          x: { Mean: 1, Var: 4, Scale: 2, NSamplesSeen: 4 },
          y: { Mean: 2, Var: 9, Scale: 3, NSamplesSeen: 4 },
        },
      },
      context,
    );
    expect(reading).toMatchObject({ fitted: { mean_: [1, 2], scale_: [2, 3], feature_names_in_: ["x", "y"] } });
  });

  it("names it cannot read make a problem that names fitted_names; the mapping then reads them", () => {
    const result = { fitted: { Avg: [1, 2], Spread: [2, 3], Variance: [4, 9], NSamplesSeen: [5, 5] } };
    const problem = readFittedState(result, context);
    expect(problem).toMatchObject({ problem: expect.stringContaining("but not mean_, var_, scale_") as unknown });
    expect(problem).toMatchObject({ problem: expect.stringContaining("fitted_names") as unknown });
    const mapped = readFittedState(result, { ...context, names: { Avg: "mean_", Spread: "scale_", Variance: "var_" } });
    expect(mapped).toMatchObject({ fitted: { mean_: [1, 2], scale_: [2, 3], var_: [4, 9] } });
  });

  it("a state that does not fit the schema is refused, not applied (NaN as text, a bad count)", () => {
    const reading = readFittedState(
      { fitted: { Mean: ["1", 2], Var: [4, 9], Scale: [2, 3], NSamplesSeen: [5, 5] } },
      context,
    );
    expect(reading).toMatchObject({ problem: expect.stringContaining("mean_.0") as unknown });
    expect(readFittedState({ rows: 4 }, context)).toBeUndefined();
    expect(readFittedState({ fitted: { Mean: [1, 2] } }, { ...context, type: undefined })).toBeUndefined();
  });
});
