/**
 * A boolean column as a feature, as scikit-learn takes one (`check_array` makes bool
 * float64): true 1, false 0, missing NaN.
 */
export function booleanFeature(values: readonly (boolean | null)[]): Float64Array {
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const b = values[i];
    out[i] = b === null || b === undefined ? NaN : b ? 1 : 0;
  }
  return out;
}
