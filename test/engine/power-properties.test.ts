/**
 * Property tests (fast-check) of the four power functions against references that need no
 * engine code: near λ = 0 (and λ = 2 for Yeo-Johnson's x < 0) the series
 * L·(1 + u/2 + u²/6 + u³/24), u = c·L, from Math.log1p / Math.log, which is within about
 * 1.5 ulps there; everywhere, the inverse of the transform gives the value back within
 * the rounding the transform's output carries; and ψ is increasing in x. The absolute
 * accuracy at large exponents is checked against mpmath in power-precision.test.ts.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  boxCoxColumn,
  boxCoxInverseColumn,
  yeoJohnsonColumn,
  yeoJohnsonInverseColumn,
} from "../../src/core/engine/power-columns.js";

const EPS = 2 ** -52;
type Column = (c: Float64Array, lambda: number, out: Float64Array) => Float64Array;

function at(fn: Column, x: number, lambda: number): number {
  return fn(Float64Array.of(x), lambda, new Float64Array(1))[0];
}

function ulps(a: number, e: number): number {
  if (a === e) return 0;
  return Math.abs(a - e) / (2 ** (Math.floor(Math.log2(Math.abs(e))) - 52) || Number.MIN_VALUE);
}

/** expm1(c·L)/c from its series, for |c·L| below 1e-4 (the next term is under 1e-21 of it). */
function series(c: number, log: number): number {
  const u = c * log;
  return log * (1 + (u / 2) * (1 + (u / 3) * (1 + u / 4)));
}

/** Doubles of magnitude 10^lo..10^hi, spread over the exponents. */
const magnitude = (lo: number, hi: number) =>
  fc
    .tuple(fc.double({ min: lo, max: hi, noNaN: true }), fc.double({ min: 1, max: 2, noNaN: true }))
    .map(([e, m]) => m * 10 ** e);
/** Lambdas within 1e-300..1e-6 of 0, either sign: past scikit-learn's eps switch and below it. */
const nearZero = fc
  .tuple(magnitude(-300, -6), fc.boolean())
  .map(([m, negative]) => (negative ? -m : m))
  .filter((l) => Math.abs(l) >= EPS);

const RUNS = { numRuns: 2000 };

describe("forward powers near the log form", () => {
  it("Yeo-Johnson x >= 0, λ near 0: within 3 ulps of the series", () => {
    fc.assert(
      fc.property(magnitude(-12, 4), nearZero, (x, lambda) => {
        const log = Math.log1p(x);
        fc.pre(Math.abs(lambda * log) < 1e-4);
        expect(ulps(at(yeoJohnsonColumn, x, lambda), series(lambda, log))).toBeLessThanOrEqual(3);
      }),
      RUNS,
    );
  });

  it("Yeo-Johnson x < 0, λ near 2: within 3 ulps of the series", () => {
    fc.assert(
      fc.property(magnitude(-12, 4), nearZero, (m, delta) => {
        const lambda = 2 + delta;
        const c = 2 - lambda; // exact: Sterbenz
        fc.pre(Math.abs(c) > EPS);
        const log = Math.log1p(m);
        fc.pre(Math.abs(c * log) < 1e-4);
        expect(ulps(at(yeoJohnsonColumn, -m, lambda), -series(c, log))).toBeLessThanOrEqual(3);
      }),
      RUNS,
    );
  });

  it("Box-Cox, λ near 0: within 3 ulps of the series", () => {
    fc.assert(
      fc.property(magnitude(-300, 300), nearZero, (x, lambda) => {
        const log = Math.log(x);
        fc.pre(Math.abs(lambda) >= 1e-19 && Math.abs(lambda * log) < 1e-4 && Math.abs(log) > 1e-3);
        expect(ulps(at(boxCoxColumn, x, lambda), series(lambda, log))).toBeLessThanOrEqual(3);
      }),
      RUNS,
    );
  });
});

/**
 * The relative condition of x ↦ ψ, |ψ / (x·ψ'(x))|: how much the rounding of ψ to a double
 * moves the inverse's result, relative to x.
 */
function condition(x: number, psi: number, derivative: number): number {
  return Math.abs(psi / (x * derivative));
}

const lambdas = fc.oneof(
  nearZero,
  nearZero.map((d) => 2 + d),
  fc.double({ min: -4, max: 6, noNaN: true }),
  fc.double({ min: -80, max: 80, noNaN: true }),
);

describe("inverse of forward gives the value back", () => {
  it("Yeo-Johnson, both signs, any lambda", () => {
    fc.assert(
      fc.property(magnitude(-8, 30), fc.boolean(), lambdas, (m, negative, lambda) => {
        const x = negative ? -m : m;
        const psi = at(yeoJohnsonColumn, x, lambda);
        fc.pre(Number.isFinite(psi) && psi !== (negative ? 1 : -1) / (negative ? 2 - lambda : lambda));
        // ψ'(x) = (1 + |x|)^(c - 1) with c = λ (x >= 0) or 2 - λ (x < 0)
        const c = negative ? 2 - lambda : lambda;
        const derivative = Math.exp((c - 1) * Math.log1p(m));
        const kappa = condition(x, psi, derivative);
        fc.pre(Number.isFinite(kappa) && kappa < 1e6);
        const back = at(yeoJohnsonInverseColumn, psi, lambda);
        expect(Math.abs(back - x) / Math.abs(x)).toBeLessThanOrEqual((kappa + 4) * 2 * EPS);
      }),
      RUNS,
    );
  });

  it("Box-Cox, any lambda", () => {
    fc.assert(
      fc.property(magnitude(-30, 30), lambdas, (x, lambda) => {
        const psi = at(boxCoxColumn, x, lambda);
        fc.pre(Number.isFinite(psi) && lambda * psi !== -1);
        const kappa = condition(x, psi, Math.exp((lambda - 1) * Math.log(x)));
        fc.pre(Number.isFinite(kappa) && kappa < 1e6);
        const back = at(boxCoxInverseColumn, psi, lambda);
        expect(Math.abs(back - x) / x).toBeLessThanOrEqual((kappa + 4) * 2 * EPS);
      }),
      RUNS,
    );
  });
});

describe("ψ is increasing in x", () => {
  it("Yeo-Johnson, Box-Cox", () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1e6, max: 1e6, noNaN: true }),
        fc.double({ min: 0, max: 1e3, noNaN: true }),
        lambdas,
        (x, step, lambda) => {
          const y = x + step;
          expect(at(yeoJohnsonColumn, y, lambda)).toBeGreaterThanOrEqual(at(yeoJohnsonColumn, x, lambda));
          if (x > 0) expect(at(boxCoxColumn, y, lambda)).toBeGreaterThanOrEqual(at(boxCoxColumn, x, lambda));
        },
      ),
      RUNS,
    );
  });
});
