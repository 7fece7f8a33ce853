/**
 * The dtype name mdps shows for a column, in every place that shows one (`session.check`,
 * the REPL's /check and /describe): pandas' names for what the values are. Numbers are
 * `int64` when every value is a finite whole number (as pandas reads such a CSV column)
 * and `float64` otherwise (a missing value makes a column float, as in pandas); text is
 * `object`, or the file's own type where the file says one (`INT32 (DATE)` in Parquet,
 * `Utf8` in Arrow), which says more than `object` about a column that is passed through.
 */
import type { Column } from "./table.js";

export function columnDtype(column: Column): string {
  switch (column.kind) {
    case "number":
      return column.values.every((x) => Number.isInteger(x)) ? "int64" : "float64";
    case "boolean":
      return "bool";
    default:
      return column.arrow?.typeName ?? column.parquet?.typeName ?? "object";
  }
}
