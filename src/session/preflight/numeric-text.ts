/**
 * Text columns that are numbers but for missing-value words: what a frame read by danfo's
 * `dfd.readCSV` holds where the file spells a missing value "NA" or "n/a". pandas reads
 * such a column as numbers with NaN; danfo keeps it as text, and a job leaves it out of
 * its features. The pre-flight checks say so and name the word.
 */
import { PANDAS_NA_VALUES } from "../../core/formats/csv-dialect.js";
import { parseNumberText } from "../../core/formats/number-text.js";
import type { Column } from "../../core/formats/table.js";

const NA_WORDS = new Set(PANDAS_NA_VALUES);

export interface NumericText {
  /** The missing-value words found, in order of first appearance. */
  readonly words: readonly string[];
  /** How many cells hold one of them. */
  readonly cells: number;
  /** The data row (1-based) of the first. */
  readonly firstRow: number;
}

/** The NA words of a text column whose every other value is a number; undefined for any other column. */
export function numericButForNaWords(column: Column): NumericText | undefined {
  if (column.kind !== "string") return undefined;
  const words: string[] = [];
  let cells = 0;
  let firstRow = 0;
  let numbers = 0;
  for (let i = 0; i < column.values.length; i++) {
    const v = column.values[i];
    if (v === null || v === undefined) continue;
    if (NA_WORDS.has(v)) {
      if (cells++ === 0) firstRow = i + 1;
      if (!words.includes(v)) words.push(v);
    } else if (parseNumberText(v.trim()) !== undefined) {
      numbers++;
    } else {
      return undefined;
    }
  }
  return cells > 0 && numbers > 0 ? { words, cells, firstRow } : undefined;
}

/** The first value of a text column that is not a number: the one that makes it text. */
export function firstNonNumber(column: Column): { value: string; row: number } | undefined {
  if (column.kind !== "string") return undefined;
  for (let i = 0; i < column.values.length; i++) {
    const v = column.values[i];
    if (v !== null && v !== undefined && parseNumberText(v.trim()) === undefined) return { value: v, row: i + 1 };
  }
  return undefined;
}

/** The warning for such a column, with how to read it as numbers. */
export function numericTextMessage(name: string, found: NumericText, allNumeric: boolean): string {
  const words = found.words.map((w) => JSON.stringify(w)).join(", ");
  const cells = `${found.cells} cell${found.cells === 1 ? "" : "s"}, the first in data row ${found.firstRow}`;
  const effect = allNumeric
    ? "so the job, which transforms every numeric column, would leave it out"
    : "so no transform can take it";
  return (
    `column "${name}" is text only because of ${words} (${cells}); every other value is a number, ${effect}. ` +
    `Read the file with readCsv from "mdps/danfo" (pandas' missing-value words as missing), ` +
    `or pass the file's path to the session, which reads it that way`
  );
}
