/**
 * danfo labels every fractional number column "float32", but it keeps the values as JS
 * numbers, float64, and mdps never rounds them (only danfo's own tensor maths, such as
 * its scalers, computes in float32). What mdps shows a person says what the cells hold.
 * Kept apart from danfo.ts so the table renderers need not load danfo.
 */
export function displayedDtype(danfoDtype: string): string {
  return danfoDtype === "float32" ? "float64" : danfoDtype;
}
