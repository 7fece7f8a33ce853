/**
 * What a column that cannot be a feature holds, when it holds numbers that mdps keeps
 * exact as text (Parquet DECIMAL and 64-bit integers beyond 2^53, Arrow decimals and
 * such integers, CSV digits a double cannot hold), and how to make it a feature: a
 * refusal that only said "text" would send the user looking for letters that are not there.
 */
import { parseNumberText } from "./number-text.js";
import type { Column } from "./table.js";

export interface ExactNumbers {
  /** e.g. `DECIMAL(12,2) values (exact decimals)` */
  readonly holds: string;
  /** How to cast it to a double column, in the tools its format comes from. */
  readonly cast: string;
}

const CAST_ADVICE =
  "to use it as a feature, cast it to a double where the file is made (DuckDB: `CAST(col AS DOUBLE)`; " +
  "pandas: `df[col] = df[col].astype(float)`), accepting the rounding to about 16 significant digits";

export function exactNumbers(column: Column): ExactNumbers | undefined {
  if (column.kind !== "string") return undefined;
  const typeName = column.parquet?.typeName ?? column.arrow?.typeName;
  if (typeName !== undefined) {
    if (/^DECIMAL|^Decimal/.test(typeName)) return { holds: `${typeName} values (exact decimals)`, cast: CAST_ADVICE };
    if (/INT64|Int64|Uint64/.test(typeName)) {
      return { holds: `${typeName} integers beyond ±2^53, which a double cannot hold exactly`, cast: CAST_ADVICE };
    }
    return undefined;
  }
  const present = column.values.filter((v): v is string => v !== null);
  if (present.length === 0 || !present.every((v) => parseNumberText(v) !== undefined)) return undefined;
  return { holds: "numbers with more digits than a double holds exactly (kept as their text)", cast: CAST_ADVICE };
}
