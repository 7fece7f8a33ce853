import { describe, expect, it } from "vitest";
import { EngineError, fitTransform, transformWith } from "../../src/core/engine/index.js";
import { viaJson } from "./golden.js";

describe("StandardScaler fitted state", () => {
  const features = {
    names: ["a", "b"],
    columns: [Float64Array.from([1, 2, NaN, 4, 10]), Float64Array.from([0.5, 0.5, 0.5, 0.5, 0.5])],
  };

  it("transformWith reproduces fitTransform bit for bit after a JSON round trip", () => {
    const { columns, fitted } = fitTransform("StandardScaler", {}, features);
    const again = transformWith(viaJson(fitted), features);
    expect(again.map((c) => Array.from(c))).toEqual(columns.map((c) => Array.from(c)));
    expect(Object.is(again[0][2], NaN)).toBe(true);
  });

  it("applies the training statistics to new data", () => {
    const { fitted } = fitTransform("StandardScaler", { with_std: false }, features);
    const [a, b] = transformWith(fitted, { names: ["a", "b"], columns: [Float64Array.of(5.25), Float64Array.of(1)] });
    expect(a[0]).toBe(5.25 - 17 / 4);
    expect(b[0]).toBe(0.5);
  });

  it("rejects data with other feature columns", () => {
    const { fitted } = fitTransform("StandardScaler", {}, features);
    expect(() => transformWith(fitted, { names: ["b", "a"], columns: features.columns })).toThrow(
      /feature columns \[b, a\].*fitted on \[a, b\]/,
    );
  });

  it("rejects a state whose arrays do not fit the columns", () => {
    const { fitted } = fitTransform("StandardScaler", {}, features);
    const broken = { ...fitted, scale_: [1] };
    expect(() => transformWith(broken, features)).toThrow(EngineError);
    expect(() => transformWith(broken, features)).toThrow(/scale_ has 1 entries for 2 feature columns/);
  });

  it("never mutates its input", () => {
    const before = features.columns.map((c) => Array.from(c));
    fitTransform("StandardScaler", {}, features);
    expect(features.columns.map((c) => Array.from(c))).toEqual(before);
  });

  it("reports progress per column, ending at 1", () => {
    const seen: number[] = [];
    fitTransform("StandardScaler", {}, features, (f) => seen.push(f));
    expect(seen[seen.length - 1]).toBe(1);
    expect(seen.every((f, i) => f >= 0 && f <= 1 && (i === 0 || f >= seen[i - 1]))).toBe(true);
  });
});
