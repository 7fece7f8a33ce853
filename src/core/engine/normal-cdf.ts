/**
 * Φ, the standard normal distribution function, as scipy's ndtr computes it (the inverse
 * of QuantileTransformer's normal output goes through stats.norm.cdf): erf near the
 * centre, erfc of |x|/√2 in the tails so small probabilities keep their precision. erf
 * and erfc come from @stdlib (FreeBSD msun's, as scipy's cephes are to the last ulp or so).
 */
import erf from "@stdlib/math-base-special-erf";
import erfc from "@stdlib/math-base-special-erfc";

export function normalCdf(a: number): number {
  const x = a * Math.SQRT1_2;
  const z = Math.abs(x);
  if (z < Math.SQRT1_2) return 0.5 + 0.5 * erf(x);
  const y = 0.5 * erfc(z);
  return x > 0 ? 1 - y : y;
}
