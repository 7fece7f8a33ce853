/**
 * The dtype mdps shows for a column of a danfo DataFrame: the name column-dtype.ts gives
 * the same values (pandas' names), never danfo's own label. danfo labels a number column
 * "int32" or "float32" and a text one "string", but keeps the values as JS numbers
 * (float64) and mdps never rounds them (only danfo's own tensor maths, such as its
 * scalers, computes in float32), so /check, /describe and a notebook's table agree.
 * Kept apart from danfo.ts so the table renderers need not load danfo.
 */
const NAMES: Record<string, string> = { string: "object", boolean: "bool", datetime: "datetime64[ns]" };

export function displayedDtype(danfoDtype: string, rows: number, valueAt: (row: number) => unknown): string {
  if (danfoDtype === "int32" || danfoDtype === "float32") {
    // As column-dtype.ts: whole numbers (none missing) are int64, as pandas reads them.
    for (let row = 0; row < rows; row++) if (!Number.isInteger(valueAt(row))) return "float64";
    return "int64";
  }
  return NAMES[danfoDtype] ?? danfoDtype;
}
