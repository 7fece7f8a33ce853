/**
 * What a column that cannot be a feature holds, when it holds numbers that mdps keeps
 * exact as text (Parquet DECIMAL and 64-bit integers beyond 2^53, Arrow decimals and
 * such integers, CSV integers a double cannot hold), and how to make it a feature: a
 * refusal that only said "text" would send the user looking for letters that are not there.
 */
import { integerBeyondDouble, keptAsNumber, parseNumberText } from "./number-text.js";
import type { Column } from "./table.js";

export interface ExactNumbers {
  /** e.g. `DECIMAL(12,2) values (exact decimals)` */
  readonly holds: string;
  /** How to cast it to a double column, in the tools its format comes from. */
  readonly cast: string;
  /** For text read from CSV or JSON: the first value that made the column text, and its 1-based row. */
  readonly decider?: { readonly value: string; readonly row: number };
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
  let decider: { value: string; row: number } | undefined;
  for (let i = 0; i < column.values.length; i++) {
    const v = column.values[i];
    if (v === null || v === undefined) continue;
    const x = parseNumberText(v.trim());
    if (x === undefined) return undefined;
    if (decider === undefined && (!keptAsNumber(x, v, 0, v.length) || integerBeyondDouble(x, v, 0, v.length))) {
      decider = { value: v, row: i + 1 };
    }
  }
  if (decider === undefined) return undefined;
  const overflow = !Number.isFinite(parseNumberText(decider.value.trim()));
  const holds = overflow
    ? "numbers beyond a double's range (±1.8e308), kept as their text"
    : "integers beyond ±2^53 whose digits a double cannot hold exactly (kept as their text)";
  return { holds, cast: CAST_ADVICE, decider };
}
