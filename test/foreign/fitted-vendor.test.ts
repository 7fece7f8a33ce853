/**
 * A vendor that returns the fitted state as `FittedParameters` with scikit-learn's names in
 * PascalCase (test/foreign-service `fittedParameters: pascal`): job.transformer() applies
 * it to new data, as scikit-learn would.
 */
import { DataFrame } from "danfojs-node";
import { describe, expect, it } from "vitest";
import { inputFrame, useForeignSessions } from "./foreign-helpers.js";

const { open } = useForeignSessions({ jobDelayMs: 30, fittedParameters: "pascal" });
const values = (df: DataFrame, column: string) => (df[column] as { values: number[] }).values;

describe("fitted parameters in the vendor's shape", () => {
  it("StandardScaler: Mean, Var, Scale read as mean_, var_, scale_; the transformer scales new data", async () => {
    const { session } = await open();
    const job = await session.preprocess(inputFrame(), { type: "StandardScaler" });
    const scaler = await job.transformer({ progress: "none", pollIntervalMs: 20 });
    expect(job.fitted).toMatchObject({ type: "StandardScaler", feature_names_in_: ["a", "b"], mean_: [2.5, 25] });
    const fresh = new DataFrame({ a: [5, -1], label: ["q", "r"], b: [0, 100] });
    const out = scaler.transform(fresh);
    const std = Math.sqrt(1.25);
    expect(values(out, "a")[0]).toBeCloseTo((5 - 2.5) / std, 12);
    expect(values(out, "a")[1]).toBeCloseTo((-1 - 2.5) / std, 12);
    expect(values(out, "b")[1]).toBeCloseTo((100 - 25) / (10 * std), 12);
    expect((out["label"] as { values: string[] }).values).toEqual(["q", "r"]);
  });

  it("MinMaxScaler with a feature_range: DataMin, DataMax, Scale, Min; the sent params complete the state", async () => {
    const { session } = await open();
    const job = await session.preprocess(inputFrame(), {
      type: "MinMaxScaler",
      params: { feature_range: [-1, 1] },
    });
    const scaler = await job.transformer({ progress: "none", pollIntervalMs: 20 });
    expect(job.fitted).toMatchObject({ params: { feature_range: [-1, 1] }, data_min_: [1, 10], data_max_: [4, 40] });
    const out = scaler.transform(new DataFrame({ a: [2.5, 7], label: ["x", "y"], b: [10, 25] }));
    expect(values(out, "a")[0]).toBeCloseTo(0, 12);
    expect(values(out, "a")[1]).toBeCloseTo(3, 12);
    expect(values(out, "b")[0]).toBeCloseTo(-1, 12);
    expect(values(out, "b")[1]).toBeCloseTo(0, 12);
  });
});
