/**
 * PowerTransformer's powers and lambdas against exact references, and one-column sums
 * against numpy (test/fixtures/sklearn/precision.py: mpmath at 60-400 digits, scikit-learn
 * 1.2.1, numpy 1.24): every power within a few ulps of the exact transform at its lambda,
 * in both directions, for lambdas near 0, near 2 and exponents up to ~700; lambdas never
 * farther from the exact optimum than scikit-learn's, except on columns too close to
 * constant, which get the near_constant notice (and keep the search's lambda where the
 * refined one would leave rounding only); and one-column statistics bit for bit.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { fitTransform } from "../../src/core/engine/index.js";
import {
  boxCoxColumn,
  boxCoxInverseColumn,
  yeoJohnsonColumn,
  yeoJohnsonInverseColumn,
} from "../../src/core/engine/power-columns.js";
import { decodeColumn, decodeNumber, type JsonNumber } from "./golden.js";
import { brentMinimize } from "../../src/core/engine/brent.js";
import { refineLambda } from "../../src/core/engine/lambda-refine.js";
import { boxCoxObjective, yeoJohnsonObjective } from "../../src/core/engine/power-functions.js";
import { boxCoxObjectiveSlope, yeoJohnsonObjectiveSlope } from "../../src/core/engine/power-slope.js";

interface PowerEntry {
  method: "yeo-johnson" | "box-cox";
  lambda: number;
  x: number;
  psi: JsonNumber;
  inverse_of_psi?: JsonNumber;
}

interface ColumnEntry {
  name: string;
  method: "yeo-johnson" | "box-cox";
  values: number[];
  sd_log: number;
  sklearn_lambda: number;
  sklearn_standardized: JsonNumber[];
  exact_lambda: string | null;
  slope_sign?: number;
  exact_output?: JsonNumber[];
  exact_standardized?: JsonNumber[];
}

const fixture = JSON.parse(readFileSync(new URL("../fixtures/sklearn/precision.json", import.meta.url), "utf8")) as {
  powers: PowerEntry[];
  columns: ColumnEntry[];
  sums: { normal_5000: JsonNumber[]; cases: SumCase[] };
};

/** |a - e| in units of e's ulp (0 when both are the same non-finite value). */
function ulps(a: number, e: number): number {
  if (Object.is(a, e) || (a !== a && e !== e)) return 0;
  if (!Number.isFinite(e) || !Number.isFinite(a)) return Infinity;
  const ulp = e === 0 ? Number.MIN_VALUE : 2 ** (Math.floor(Math.log2(Math.abs(e))) - 52);
  return Math.abs(a - e) / Math.max(ulp, Number.MIN_VALUE);
}

function apply(fn: (c: Float64Array, l: number, o: Float64Array) => Float64Array, x: number, lambda: number) {
  return fn(Float64Array.of(x), lambda, new Float64Array(1))[0];
}

describe("power functions against mpmath", () => {
  const worst = (method: string, direction: "psi" | "inverse_of_psi") => {
    let max = 0;
    const bad: string[] = [];
    for (const e of fixture.powers) {
      if (e.method !== method || e[direction] === undefined) continue;
      const boxCox = method === "box-cox";
      const expected = decodeNumber(e[direction]);
      const got =
        direction === "psi"
          ? apply(boxCox ? boxCoxColumn : yeoJohnsonColumn, e.x, e.lambda)
          : apply(boxCox ? boxCoxInverseColumn : yeoJohnsonInverseColumn, decodeNumber(e.psi), e.lambda);
      const off = ulps(got, expected);
      max = Math.max(max, off);
      if (off > 4) bad.push(`λ=${e.lambda} x=${e.x}: got ${got}, exact ${expected} (${off.toPrecision(3)} ulps)`);
    }
    return { max, bad };
  };

  it.each([
    ["yeo-johnson", "psi"],
    ["yeo-johnson", "inverse_of_psi"],
    ["box-cox", "psi"],
    ["box-cox", "inverse_of_psi"],
  ] as const)("%s %s is within 4 ulps of the exact value everywhere", (method, direction) => {
    const { bad, max } = worst(method, direction);
    expect(bad).toEqual([]);
    expect(max).toBeLessThanOrEqual(4);
  });

  it("covers lambdas near 0 and 2 and exponents in the hundreds", () => {
    const yj = fixture.powers.filter((e) => e.method === "yeo-johnson");
    expect(yj.some((e) => e.lambda !== 0 && Math.abs(e.lambda) < 1e-15)).toBe(true);
    expect(yj.some((e) => e.lambda !== 2 && Math.abs(e.lambda - 2) < 1e-15 && e.x < 0)).toBe(true);
    expect(yj.some((e) => Math.abs(e.lambda * Math.log1p(e.x)) > 600 && Number.isFinite(decodeNumber(e.psi)))).toBe(
      true,
    );
  });
});

function fit(c: ColumnEntry, standardize: boolean) {
  return fitTransform(
    "PowerTransformer",
    { method: c.method, standardize },
    { names: ["x"], columns: [Float64Array.from(c.values)] },
  );
}

describe.each(fixture.columns.map((c) => [`${c.name} ${c.method}`, c] as const))("column %s", (_, c) => {
  const raw = fit(c, false);
  const lambda = (raw.fitted.lambdas_ as number[])[0];
  const nearConstant = c.sd_log < 1e-8;

  if (c.exact_lambda !== null && !nearConstant) {
    const exact = Number(c.exact_lambda);
    it("has a lambda no farther from the exact optimum than scikit-learn's", () => {
      const ours = Math.abs(lambda - exact);
      const theirs = Math.abs(c.sklearn_lambda - exact);
      expect(ours).toBeLessThanOrEqual(Math.max(theirs, 1e-13 * Math.max(1, Math.abs(exact))));
    });

    it("transforms to the exact output at the exact optimum", () => {
      const expected = decodeColumn(c.exact_output!);
      const relative = Array.from(raw.columns[0], (v, i) => Math.abs(v - expected[i]) / Math.abs(expected[i]));
      // moving lambda by d moves ψ by about d·L²/2 relative; the rest is a few ulps
      const logs = c.values.map((v) => Math.log1p(Math.abs(v)) ** 2);
      const allowed = Math.abs(lambda - Number(c.exact_lambda)) * Math.max(...logs) + 1e-15;
      expect(Math.max(...relative)).toBeLessThanOrEqual(allowed);
    });
  } else if (c.exact_lambda === null) {
    it("has no optimum within reach, and is near-constant", () => {
      // The slope keeps its sign past ±4096: the optimum lies where the powers underflow.
      expect(c.slope_sign).toBe(1);
      expect(nearConstant).toBe(true);
    });
  }

  it(nearConstant ? "gets the near_constant notice" : "gets no near_constant notice", () => {
    const codes = [...raw.warnings, ...fit(c, true).warnings].map((w) => w.code);
    expect(codes.filter((code) => code === "near_constant")).toHaveLength(nearConstant ? 2 : 0);
    if (nearConstant) expect(raw.warnings[0].message).toMatch(/too close to constant for its lambda/);
  });

  it("standardizes to the exact output up to the rounding of ψ to doubles", () => {
    if (c.exact_standardized === undefined) return;
    const expected = decodeColumn(c.exact_standardized);
    const out = fit(c, true).columns[0];
    if (nearConstant) {
      // Any moderate lambda gives the same standardized output here; what is left is ψ's
      // rounding (1e16 + 2i: its values are 8 ulps apart at mdps's lambda).
      expect(Math.max(...Array.from(out, (v, i) => Math.abs(v - expected[i])))).toBeLessThan(0.05);
      return;
    }
    // Each ψ is rounded to a double: half an ulp of the largest, over the spread of ψ.
    const psi = raw.columns[0];
    const peak = Math.max(...Array.from(psi, Math.abs));
    const mean = psi.reduce((s, v) => s + v, 0) / psi.length;
    const sd = Math.sqrt(psi.reduce((s, v) => s + (v - mean) ** 2, 0) / psi.length);
    const allowed = (4 * peak * 2 ** -53) / sd + 1e-12;
    const diffs = Array.from(out, (v, i) => Math.abs(v - expected[i]));
    expect(Math.max(...diffs)).toBeLessThanOrEqual(allowed);
  });
});

describe("the columns scikit-learn's search leaves far from the optimum", () => {
  it.each([
    ["alternating", "yeo-johnson", 1e-9],
    ["alternating", "box-cox", 1e-9],
    ["two_rows", "yeo-johnson", 1e-12],
  ] as const)("%s under %s lands within %s of the exact optimum", (name, method, within) => {
    const c = fixture.columns.find((e) => e.name === name && e.method === method)!;
    const lambda = (fit(c, false).fitted.lambdas_ as number[])[0];
    expect(Math.abs(lambda - Number(c.exact_lambda))).toBeLessThan(within);
    expect(Math.abs(c.sklearn_lambda - Number(c.exact_lambda))).toBeGreaterThan(within);
  });
});

describe("a refined lambda whose transform would be rounding only", () => {
  // 1e9 plus multiples of 2^-9: the likelihood's optimum is near -3e6, where every power
  // of these values underflows to the same double.
  const x = formulaColumn(5000, 4);
  it.each(["yeo-johnson", "box-cox"] as const)("is not taken under %s: the search's is kept", (method) => {
    const searched = brentMinimize(method === "box-cox" ? boxCoxObjective(x) : yeoJohnsonObjective(x), -2, 2);
    const slope = method === "box-cox" ? boxCoxObjectiveSlope(x) : yeoJohnsonObjectiveSlope(x);
    expect(Math.abs(refineLambda(slope, searched))).toBeGreaterThan(1e5);
    const { fitted, warnings } = fitTransform("PowerTransformer", { method }, { names: ["x"], columns: [x] });
    expect((fitted.lambdas_ as number[])[0]).toBe(searched);
    expect(warnings.map((w) => w.code)).toEqual(["near_constant"]);
  });

  it("keeps the output data under Yeo-Johnson (z-scores, not rounding)", () => {
    const out = fitTransform("PowerTransformer", {}, { names: ["x"], columns: [x] }).columns[0];
    expect(Math.max(...out) - Math.min(...out)).toBeGreaterThan(3);
  });
});

describe("an optimum out of float64's reach on a column that is not near-constant", () => {
  // 100 plus skewed values in [e^-2, e^2]: the likelihood's optimum is near -50, where
  // (101)^λ is 1e-100 and every ψ rounds to 1/|λ|.
  const x = Float64Array.from({ length: 2003 }, (_, i) => 100 + Math.exp(((i * 7919) % 2003) / 500 - 2));
  const fit = (col: Float64Array) => fitTransform("PowerTransformer", {}, { names: ["x"], columns: [col] });

  it("keeps the search's lambda and says why, with what to do", () => {
    const searched = brentMinimize(yeoJohnsonObjective(x), -2, 2);
    expect(refineLambda(yeoJohnsonObjectiveSlope(x), searched)).toBeLessThan(-20);
    const { fitted, warnings } = fit(x);
    expect((fitted.lambdas_ as number[])[0]).toBe(searched);
    expect(warnings.map((w) => w.code)).toEqual(["lambda_optimum_unreachable"]);
    expect(warnings[0].message).toMatch(/optimum for lambda \(about -\d+(\.\d+)?\).*subtract a constant/);
  });

  it("is within reach once the constant is subtracted: no notice, the refined lambda", () => {
    const shifted = x.map((v) => v - 100);
    const { fitted, warnings } = fit(shifted);
    expect(warnings).toEqual([]);
    const searched = brentMinimize(yeoJohnsonObjective(shifted), -2, 2);
    expect((fitted.lambdas_ as number[])[0]).toBe(refineLambda(yeoJohnsonObjectiveSlope(shifted), searched));
  });
});

interface SumCase {
  type: "StandardScaler" | "MinMaxScaler" | "MaxAbsScaler" | "RobustScaler";
  name: string;
  columns: Array<{ kind: "normal" } | { kind: "formula"; n: number; seed: number; nan_every?: number }>;
  fitted: Record<string, unknown>;
  output_head: JsonNumber[][];
}

/** precision.py's formula_column: 1e9 plus multiples of 2^-9 in [-2, 2], NaN every nan_every rows from row 3. */
function formulaColumn(n: number, seed: number, nanEvery = 0): Float64Array {
  return Float64Array.from({ length: n }, (_, i) =>
    nanEvery && i % nanEvery === 3 ? NaN : 1e9 + (((i * 7919 + seed * 104729) % 2003) - 1001) / 512,
  );
}

describe("one-column sums as numpy's, bit for bit", () => {
  const normal = decodeColumn(fixture.sums.normal_5000);
  it.each(fixture.sums.cases.map((c) => [`${c.type} ${c.name}`, c] as const))("%s", (_, c) => {
    const columns = c.columns.map((spec) =>
      spec.kind === "normal" ? normal : formulaColumn(spec.n, spec.seed, spec.nan_every),
    );
    const names = columns.map((_, j) => `x${j}`);
    const result = fitTransform(c.type, {}, { names, columns });
    const fitted = result.fitted as unknown as Record<string, unknown>;
    for (const [key, expected] of Object.entries(c.fitted)) {
      if (!Array.isArray(expected) || key === "n_samples_seen_") continue;
      expect([key, decodeColumn(fitted[key] as unknown[])]).toEqual([key, decodeColumn(expected)]);
    }
    c.output_head.forEach((head, j) => expect(result.columns[j].slice(0, head.length)).toEqual(decodeColumn(head)));
  });

  it("differs from a row-order sum on these columns (the fixture tells the two apart)", () => {
    const c = fixture.sums.cases.find((e) => e.type === "StandardScaler" && e.name === "normal_5000")!;
    let rowOrder = 0;
    for (const v of normal) rowOrder += v;
    expect(rowOrder / normal.length).not.toBe((c.fitted.mean_ as number[])[0]);
  });
});
