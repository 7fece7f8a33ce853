/**
 * Refines the lambda scikit-learn's search found (scipy's Brent on the objective) to the
 * root of the objective's slope (power-slope.ts), so that it lies as close to the exact
 * optimum as float64 allows (docs/transforms.md#precision-of-lambda).
 *
 * Brent's lambda is off by rounding noise of the objective, which is about the same in
 * absolute terms whatever lambda is, so the window around it is absolute near 0
 * (1e-5·max(1, |λ|)) and not relative: a relative window misses the optimum when λ is
 * small. The window moves downhill, 4x wider each time, while the slope does not change
 * sign in it: on a column close to constant the objective is flat enough that Brent can
 * stop several units away (1e5 / 1e5+1 alternating: 3.25 for an optimum of 0). A step
 * into overflow (a slope that is not finite) is halved until it lands short of it; if
 * none does, the search's lambda is kept.
 */
const WINDOW = 1e-5;
/** Up to 4^24 times the first window: about 3e9·max(1, |λ|) from the search's lambda. */
const WINDOW_MOVES = 24;
const EPS = 2.220446049250313e-16;
/**
 * Below this width the bracket is final even near 0: moving λ by 1e-20 moves ψ by about
 * L²·1e-20, and it is below both transforms' thresholds for their log forms.
 */
const ABSOLUTE_WIDTH = 1e-20;
const MAX_EVALUATIONS = 200;
/** Halvings of a step into overflow before the window gives up: 2^-30 of it is left. */
const HALVINGS = 30;
/**
 * A root this close to 0 is inside the slope's rounding noise (the slope is ~1e-14 there
 * whatever λ is); 0 itself, the exact log form of both transforms, is taken when its slope
 * is no larger.
 */
const SNAP_TO_ZERO = 1e-14;

export function refineLambda(slope: (lambda: number) => number, lambda: number): number {
  if (!Number.isFinite(lambda)) return lambda;
  let width = WINDOW * Math.max(1, Math.abs(lambda));
  let lo = lambda - width;
  let hi = lambda + width;
  let slopeLo = slope(lo);
  let slopeHi = slope(hi);
  for (let move = 0; move < WINDOW_MOVES; move++) {
    if (!Number.isFinite(slopeLo) || !Number.isFinite(slopeHi)) return lambda;
    width *= 4;
    if (slopeLo > 0 && slopeHi > 0) {
      [hi, slopeHi] = [lo, slopeLo];
      [lo, slopeLo] = finiteStep(slope, hi, -width);
    } else if (slopeLo < 0 && slopeHi < 0) {
      [lo, slopeLo] = [hi, slopeHi];
      [hi, slopeHi] = finiteStep(slope, lo, width);
    } else break;
  }
  if (!(slopeLo <= 0 && slopeHi >= 0)) return lambda;
  const root = rootInBracket(slope, { lo, hi, slopeLo, slopeHi });
  if (!Number.isFinite(root)) return lambda;
  return Math.abs(root) < SNAP_TO_ZERO && Math.abs(slope(0)) <= Math.abs(slope(root)) ? 0 : root;
}

/**
 * The point `step` away from `from` and its slope, the step halved while the slope there is
 * not finite (the powers overflow past some lambda): a window that would jump over the
 * optimum into overflow stops short of it instead.
 */
function finiteStep(slope: (lambda: number) => number, from: number, step: number): [number, number] {
  let to = from + step;
  let value = slope(to);
  for (let halving = 0; halving < HALVINGS && !Number.isFinite(value); halving++) {
    step /= 2;
    to = from + step;
    value = slope(to);
  }
  return [to, value];
}

interface SlopeBracket {
  lo: number;
  hi: number;
  slopeLo: number;
  slopeHi: number;
}

/**
 * The root of `f` in a bracket where it changes sign, by Brent's root finder (zbrent as in
 * Numerical Recipes: inverse quadratic interpolation, secant, bisection whenever those do
 * not shrink the bracket fast enough, so rounding noise near the root cannot stall it).
 * Stops when the bracket is down to a few ulps or ABSOLUTE_WIDTH, or at an exact 0 of f.
 * NaN when f is not finite inside.
 */
function rootInBracket(f: (x: number) => number, start: SlopeBracket): number {
  let a = start.lo;
  let b = start.hi;
  let fa = start.slopeLo;
  let fb = start.slopeHi;
  let c = b;
  let fc = fb;
  let d = b - a;
  let e = d;
  for (let i = 0; i < MAX_EVALUATIONS; i++) {
    if ((fb > 0 && fc > 0) || (fb < 0 && fc < 0)) {
      [c, fc] = [a, fa];
      d = b - a;
      e = d;
    }
    if (Math.abs(fc) < Math.abs(fb)) {
      [a, b, c] = [b, c, b];
      [fa, fb, fc] = [fb, fc, fb];
    }
    const tol = 2 * EPS * Math.abs(b) + 0.5 * ABSOLUTE_WIDTH;
    const half = 0.5 * (c - b);
    if (fb === 0) return b;
    if (Math.abs(half) <= tol) return b;
    if (Math.abs(e) >= tol && Math.abs(fa) > Math.abs(fb)) {
      const s = fb / fa;
      let p: number;
      let q: number;
      if (a === c) {
        p = 2 * half * s;
        q = 1 - s;
      } else {
        const qa = fa / fc;
        const r = fb / fc;
        p = s * (2 * half * qa * (qa - r) - (b - a) * (r - 1));
        q = (qa - 1) * (r - 1) * (s - 1);
      }
      if (p > 0) q = -q;
      p = Math.abs(p);
      if (2 * p < Math.min(3 * half * q - Math.abs(tol * q), Math.abs(e * q))) {
        e = d;
        d = p / q;
      } else {
        d = half;
        e = d;
      }
    } else {
      d = half;
      e = d;
    }
    a = b;
    fa = fb;
    b += Math.abs(d) > tol ? d : half >= 0 ? tol : -tol;
    fb = f(b);
    if (!Number.isFinite(fb)) return NaN;
  }
  return b;
}
