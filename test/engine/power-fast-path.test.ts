/**
 * The power functions on both sides of their plain fast path (src/core/engine/power-columns.ts:
 * |c·L| <= 1, and in the inverses 1 + c·y >= 0.5, skip the double-double log) against
 * mpmath: 4,500 random points with exponents from 1e-7 to 8 in size and values from 1e-6
 * to 1e6 (test/fixtures/sklearn/power-fast-path.py), every one within the documented 4 ulps
 * of the exact value in both directions.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  boxCoxColumn,
  boxCoxInverseColumn,
  yeoJohnsonColumn,
  yeoJohnsonInverseColumn,
} from "../../src/core/engine/power-columns.js";

interface Point {
  method: "yeo-johnson" | "box-cox";
  x: number;
  lambda: number;
  psi: string;
  inverse?: string;
}

const { points } = JSON.parse(
  readFileSync(new URL("../fixtures/sklearn/power-fast-path.json", import.meta.url), "utf8"),
) as { points: Point[] };

/** |a - e| in units of e's ulp. */
function ulps(a: number, e: number): number {
  if (Object.is(a, e)) return 0;
  if (!Number.isFinite(a) || !Number.isFinite(e)) return Infinity;
  return Math.abs(a - e) / 2 ** (Math.floor(Math.log2(Math.abs(e))) - 52);
}

type Column = (c: Float64Array, lambda: number, out: Float64Array) => Float64Array;
const at = (fn: Column, x: number, lambda: number) => fn(Float64Array.of(x), lambda, new Float64Array(1))[0];

/** c and L of a point: its exponent is c·L. */
function exponent(p: Point): { c: number; log: number } {
  if (p.method === "box-cox") return { c: p.lambda, log: Math.log(p.x) };
  return p.x >= 0 ? { c: p.lambda, log: Math.log1p(p.x) } : { c: 2 - p.lambda, log: Math.log1p(-p.x) };
}

/** 1 + c·y of an inverse, y = ψ (c = -(2 - λ) for Yeo-Johnson's y < 0, as the code forms it). */
function inverseBase(p: Point): number {
  const y = Number(p.psi);
  const c = p.method === "yeo-johnson" && y < 0 ? -(2 - p.lambda) : p.lambda;
  return 1 + c * y;
}

const cases = [
  ["yeo-johnson, x >= 0", (p: Point) => p.method === "yeo-johnson" && p.x >= 0],
  ["yeo-johnson, x < 0", (p: Point) => p.method === "yeo-johnson" && p.x < 0],
  ["box-cox", (p: Point) => p.method === "box-cox"],
] as const;

describe.each(cases)("%s", (_, belongs) => {
  const mine = points.filter(belongs);
  const boxCox = mine[0].method === "box-cox";

  it("covers both sides of the fast path", () => {
    const sizes = mine.map((p) => {
      const { c, log } = exponent(p);
      return Math.abs(c * log);
    });
    expect(sizes.filter((s) => s > 0.05 && s <= 1).length).toBeGreaterThan(100);
    expect(sizes.filter((s) => s > 1 && s < 4).length).toBeGreaterThan(100);
    const bases = mine.filter((p) => p.inverse !== undefined).map(inverseBase);
    expect(bases.filter((b) => b >= 0.5 && b < 0.9).length).toBeGreaterThan(50);
    expect(bases.filter((b) => b > 0 && b < 0.5).length).toBeGreaterThan(50);
  });

  it("transforms every point within 4 ulps of the exact value", () => {
    const bad: string[] = [];
    for (const p of mine) {
      const got = at(boxCox ? boxCoxColumn : yeoJohnsonColumn, p.x, p.lambda);
      const off = ulps(got, Number(p.psi));
      if (off > 4) bad.push(`λ=${p.lambda} x=${p.x}: got ${got}, exact ${p.psi} (${off} ulps)`);
    }
    expect(bad).toEqual([]);
  });

  it("inverts every point within 4 ulps of the exact inverse", () => {
    const bad: string[] = [];
    for (const p of mine) {
      if (p.inverse === undefined) continue;
      const got = at(boxCox ? boxCoxInverseColumn : yeoJohnsonInverseColumn, Number(p.psi), p.lambda);
      const off = ulps(got, Number(p.inverse));
      if (off > 4) bad.push(`λ=${p.lambda} y=${p.psi}: got ${got}, exact ${p.inverse} (${off} ulps)`);
    }
    expect(bad).toEqual([]);
  });
});
