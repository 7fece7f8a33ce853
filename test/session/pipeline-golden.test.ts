/**
 * Pipelines against scikit-learn's own Pipeline and ColumnTransformer(remainder="passthrough"),
 * on the golden fixtures test/fixtures/sklearn/pipelines.py wrote with scikit-learn 1.2.1:
 * each case is fitted as a chain of jobs on the real reference service (Session.local()),
 * and its output, the fitted pipeline's transform of the test table, and (where every step
 * has one) its inverse_transform are compared with scikit-learn's, column by column (mdps
 * keeps the input's column order; scikit-learn's ColumnTransformer puts transformed columns
 * first). Tolerances are the engine golden tests' (test/engine/golden.ts): rel 1e-9, and
 * 1e-6 where a PowerTransformer is in the chain (scikit-learn's lambda is only determined
 * to ~1e-7). On the training table itself, `transform` must equal the service's own output
 * bit for bit.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { DataFrame } from "danfojs-node";
import { describe, expect, it } from "vitest";
import type { AnyPipelineStep } from "../../src/index.js";
import { useLocalSession } from "./session-fixture.js";

interface TableFixture {
  columns: string[];
  numbers: Record<string, JsonNumber[]>;
  label: string[] | null;
}

interface PipelineCase {
  name: string;
  sklearn: string;
  sklearn_column_order: string[];
  steps: AnyPipelineStep[];
  train: TableFixture;
  test: TableFixture;
  fit_transform: Record<string, JsonNumber[]>;
  transform: Record<string, JsonNumber[]>;
  inverse_transform: Record<string, JsonNumber[]> | null;
}

const fixture = JSON.parse(
  readFileSync(fileURLToPath(new URL("../fixtures/sklearn/pipelines.json", import.meta.url)), "utf8"),
) as { sklearn: string; cases: PipelineCase[] };

type JsonNumber = number | "NaN" | "Infinity" | "-Infinity";

/** |actual - expected| <= rel·|expected| + abs per cell, NaN only where scikit-learn has NaN (test/engine/golden.ts's rule). */
interface Tolerance {
  rel: number;
  abs: number;
}
const EXACT_TO_1E9: Tolerance = { rel: 1e-9, abs: 1e-12 };
const POWER: Tolerance = { rel: 1e-6, abs: 1e-6 };

function decodeNumber(x: JsonNumber): number {
  return x === "NaN" ? NaN : x === "Infinity" ? Infinity : x === "-Infinity" ? -Infinity : x;
}

function mismatches(actual: Float64Array, expected: readonly number[], tol: Tolerance, label: string): string[] {
  if (actual.length !== expected.length) return [`${label}: length ${actual.length}, expected ${expected.length}`];
  const out: string[] = [];
  expected.forEach((e, i) => {
    const a = actual[i]!;
    const ok = Number.isNaN(e)
      ? Number.isNaN(a)
      : Number.isFinite(e)
        ? Math.abs(a - e) <= tol.rel * Math.abs(e) + tol.abs
        : a === e;
    if (!ok && out.length < 5) out.push(`${label}[${i}]: got ${a}, expected ${e} (diff ${Math.abs(a - e)})`);
  });
  return out;
}
const session = useLocalSession();

function frameOf(
  table: { columns: string[]; label: string[] | null },
  numbers: Record<string, JsonNumber[]>,
): DataFrame {
  const data: Record<string, Array<number | string | null>> = {};
  for (const name of table.columns) {
    if (name === "label") data[name] = table.label ?? [];
    else data[name] = numbers[name]!.map((v) => (v === "NaN" ? null : decodeNumber(v)));
  }
  return new DataFrame(data);
}

function numbersOf(df: DataFrame, name: string): Float64Array {
  return Float64Array.from(df.column(name).values as Array<number | null>, (v) => (v === null ? NaN : v));
}

/** Cells that differ in any bit (a missing value is NaN on both sides, whatever its payload). */
function sameBits(actual: Float64Array, expected: Float64Array): string[] {
  if (actual.length !== expected.length) return [`length ${actual.length}, expected ${expected.length}`];
  const out: string[] = [];
  expected.forEach((e, i) => {
    if (!Object.is(actual[i], e)) out.push(`[${i}]: ${actual[i]} vs ${e}`);
  });
  return out;
}

function problems(df: DataFrame, expected: Record<string, JsonNumber[]>, tol: Tolerance, what: string): string[] {
  return Object.entries(expected).flatMap(([name, values]) =>
    mismatches(numbersOf(df, name), values.map(decodeNumber), tol, `${what} ${name}`),
  );
}

describe(`pipelines match scikit-learn ${fixture.sklearn}'s Pipeline and ColumnTransformer`, () => {
  it("the fixtures hold at least six cases, Pipelines and ColumnTransformers, with missing values", () => {
    expect(fixture.cases.length).toBeGreaterThanOrEqual(6);
    expect(fixture.cases.some((c) => c.sklearn.startsWith("ColumnTransformer"))).toBe(true);
    expect(fixture.cases.some((c) => c.sklearn.startsWith("Pipeline"))).toBe(true);
    expect(fixture.cases.every((c) => Object.values(c.train.numbers).flat().includes("NaN"))).toBe(true);
  });

  for (const c of fixture.cases) {
    it(`${c.name}: ${c.sklearn}`, async () => {
      const tol = c.steps.some((s) => s.type === "PowerTransformer") ? POWER : EXACT_TO_1E9;
      const train = frameOf(c.train, c.train.numbers);
      const test = frameOf(c.test, c.test.numbers);
      const fitted = await session().pipeline(c.steps).fit(train, { progress: false });
      expect(fitted.jobs).toHaveLength(c.steps.length);

      // The chain's output, as the service wrote it: the input's column order, text passed through.
      const output = await fitted.output!.download();
      expect(output.columns).toEqual(c.train.columns);
      if (c.train.label) expect(output.column("label").values).toEqual(c.train.label);
      expect(problems(output, c.fit_transform, tol, "fit_transform")).toEqual([]);

      // Applied here: bit for bit the service's output on the data it ran on...
      const again = fitted.transform(train);
      for (const name of Object.keys(c.fit_transform))
        expect(sameBits(numbersOf(again, name), numbersOf(output, name))).toEqual([]);
      // ...and scikit-learn's transform on new data.
      const testOut = fitted.transform(test);
      expect(testOut.columns).toEqual(c.test.columns);
      expect(problems(testOut, c.transform, tol, "transform")).toEqual([]);

      if (c.inverse_transform === null) {
        expect(fitted.invertible).toBe(false);
        expect(() => fitted.inverseTransform(testOut)).toThrow(/has no inverse_transform/);
      } else {
        expect(fitted.invertible).toBe(true);
        const back = fitted.inverseTransform(frameOf(c.test, c.transform));
        expect(problems(back, c.inverse_transform, tol, "inverse_transform")).toEqual([]);
      }
    });
  }
});
