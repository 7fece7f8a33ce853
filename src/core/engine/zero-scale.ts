/**
 * scikit-learn's _handle_zeros_in_scale without a mask: a scale below 10·eps (an absolute
 * threshold, not relative to the data) is replaced by 1 so near-constant columns are not
 * blown up. NaN stays NaN (the comparison is false).
 */
export const ZERO_SCALE_LIMIT = 10 * 2.220446049250313e-16;

export function nonZeroScale(scale: number): number {
  return scale < ZERO_SCALE_LIMIT ? 1 : scale;
}
