/**
 * scipy.optimize.brent(f, brack=(xa, xb)) of scipy 1.10, ported statement for statement:
 * first `bracket` walks downhill from the two starting points (unbounded: the minimum may
 * lie far outside them), then Brent's method with xtol 1.48e-8 and at most 500 iterations.
 * Comparisons are kept exactly as written there, including how NaN and +Infinity values of
 * f steer the search, because scikit-learn's lambdas_ are whatever this search returns
 * (docs/transforms.md#lambda-search).
 */

const GOLD = 1.618034;
const VERY_SMALL = 1e-21;
const GROW_LIMIT = 110.0;
const BRACKET_MAXITER = 1000;
const XTOL = 1.48e-8;
const MINTOL = 1.0e-11;
const CG = 0.381966;
const MAXITER = 500;

export class BracketError extends Error {
  override readonly name = "BracketError";
}

export interface Bracket {
  xa: number;
  xb: number;
  xc: number;
  fa: number;
  fb: number;
  fc: number;
}

export function bracket(f: (x: number) => number, xa0: number, xb0: number): Bracket {
  let xa = xa0;
  let xb = xb0;
  let fa = f(xa);
  let fb = f(xb);
  if (fa < fb) {
    [xa, xb] = [xb, xa];
    [fa, fb] = [fb, fa];
  }
  let xc = xb + GOLD * (xb - xa);
  let fc = f(xc);
  let iter = 0;
  while (fc < fb) {
    const tmp1 = (xb - xa) * (fb - fc);
    const tmp2 = (xb - xc) * (fb - fa);
    const val = tmp2 - tmp1;
    const denom = Math.abs(val) < VERY_SMALL ? 2.0 * VERY_SMALL : 2.0 * val;
    let w = xb - ((xb - xc) * tmp2 - (xb - xa) * tmp1) / denom;
    const wlim = xb + GROW_LIMIT * (xc - xb);
    if (iter > BRACKET_MAXITER) throw new BracketError("Too many iterations.");
    iter += 1;
    let fw: number;
    if ((w - xc) * (xb - w) > 0.0) {
      fw = f(w);
      if (fw < fc) {
        return { xa: xb, xb: w, xc, fa: fb, fb: fw, fc };
      } else if (fw > fb) {
        return { xa, xb, xc: w, fa, fb, fc: fw };
      }
      w = xc + GOLD * (xc - xb);
      fw = f(w);
    } else if ((w - wlim) * (wlim - xc) >= 0.0) {
      w = wlim;
      fw = f(w);
    } else if ((w - wlim) * (xc - w) > 0.0) {
      fw = f(w);
      if (fw < fc) {
        xb = xc;
        xc = w;
        w = xc + GOLD * (xc - xb);
        fb = fc;
        fc = fw;
        fw = f(w);
      }
    } else {
      w = xc + GOLD * (xc - xb);
      fw = f(w);
    }
    xa = xb;
    xb = xc;
    xc = w;
    fa = fb;
    fb = fc;
    fc = fw;
  }
  return { xa, xb, xc, fa, fb, fc };
}

/**
 * The minimiser scipy.optimize.brent returns for brack=(xa, xb); `xtol` is its relative
 * tolerance (scipy's default 1.48e-8).
 */
export function brentMinimize(f: (x: number) => number, xa0 = -2, xb0 = 2, xtol = XTOL): number {
  const { xa, xb, xc, fb } = bracket(f, xa0, xb0);
  let x = xb;
  let w = xb;
  let v = xb;
  let fx = fb;
  let fw = fb;
  let fv = fb;
  let a: number;
  let b: number;
  if (xa < xc) {
    a = xa;
    b = xc;
  } else {
    a = xc;
    b = xa;
  }
  let deltax = 0.0;
  let rat = 0.0; // scipy leaves it unbound until the first (always golden) step sets it
  let iter = 0;
  while (iter < MAXITER) {
    const tol1 = xtol * Math.abs(x) + MINTOL;
    const tol2 = 2.0 * tol1;
    const xmid = 0.5 * (a + b);
    if (Math.abs(x - xmid) < tol2 - 0.5 * (b - a)) break;
    if (Math.abs(deltax) <= tol1) {
      deltax = x >= xmid ? a - x : b - x; // golden section step
      rat = CG * deltax;
    } else {
      const tmp1 = (x - w) * (fx - fv);
      let tmp2 = (x - v) * (fx - fw);
      let p = (x - v) * tmp2 - (x - w) * tmp1;
      tmp2 = 2.0 * (tmp2 - tmp1);
      if (tmp2 > 0.0) p = -p;
      tmp2 = Math.abs(tmp2);
      const dxTemp = deltax;
      deltax = rat;
      if (p > tmp2 * (a - x) && p < tmp2 * (b - x) && Math.abs(p) < Math.abs(0.5 * tmp2 * dxTemp)) {
        rat = (p * 1.0) / tmp2; // parabolic step
        const u = x + rat;
        if (u - a < tol2 || b - u < tol2) rat = xmid - x >= 0 ? tol1 : -tol1;
      } else {
        deltax = x >= xmid ? a - x : b - x;
        rat = CG * deltax;
      }
    }
    const u = Math.abs(rat) < tol1 ? (rat >= 0 ? x + tol1 : x - tol1) : x + rat;
    const fu = f(u);
    if (fu > fx) {
      if (u < x) a = u;
      else b = u;
      if (fu <= fw || w === x) {
        v = w;
        w = u;
        fv = fw;
        fw = fu;
      } else if (fu <= fv || v === x || v === w) {
        v = u;
        fv = fu;
      }
    } else {
      if (u >= x) a = x;
      else b = x;
      v = w;
      w = x;
      x = u;
      fv = fw;
      fw = fx;
      fx = fu;
    }
    iter += 1;
  }
  return x;
}
