/**
 * A text column that is numbers except for a few words (`?`, `-`, `missing`): read as text,
 * so no transform takes it, though the user meant the words as missing values. pandas
 * reads it the same way unless told `na_values`; the REPL says which words, so `/load
 * --na` can name them.
 */
import type { Table } from "../../src/index.js";

export interface NumericText {
  readonly column: string;
  /** The words that are not numbers, commonest first, with their row counts. */
  readonly words: ReadonlyArray<{ readonly word: string; readonly rows: number }>;
  readonly numbers: number;
}

/** At most this many distinct words: more is a text column with some numbers, not the reverse. */
const MAX_WORDS = 5;
/** The words take at most this share of the present values. */
const MAX_SHARE = 0.2;

const isNumber = (text: string): boolean => text.trim() !== "" && Number.isFinite(Number(text));
/** "1,065": a number with a thousands separator, not a word for missing. */
const GROUPED = /^[-+]?\d{1,3}([,.\s']\d{3})+([.,]\d+)?$/;

export function numericTextColumns(table: Table): NumericText[] {
  const found: NumericText[] = [];
  for (const column of table.columns) {
    if (column.kind !== "string" || column.arrow !== undefined || column.parquet !== undefined) continue;
    const words = new Map<string, number>();
    let numbers = 0;
    for (const value of column.values) {
      if (value === null) continue;
      if (isNumber(value)) numbers += 1;
      else words.set(value, (words.get(value) ?? 0) + 1);
    }
    const wordRows = [...words.values()].reduce((a, b) => a + b, 0);
    if ([...words.keys()].some((w) => GROUPED.test(w.trim()))) continue;
    if (numbers === 0 || words.size === 0 || words.size > MAX_WORDS) continue;
    if (wordRows > MAX_SHARE * (numbers + wordRows)) continue;
    const sorted = [...words].map(([word, rows]) => ({ word, rows })).sort((a, b) => b.rows - a.rows);
    found.push({ column: column.name, words: sorted, numbers });
  }
  return found;
}

/** `Column "age" is text only because of 3 values: "?" (2 rows), "-" (1 row); <hint>`. */
export function numericTextMessage(found: NumericText, hint: string): string {
  const rows = found.words.reduce((n, w) => n + w.rows, 0);
  const words = found.words.map((w) => `"${w.word}" (${w.rows} row${w.rows === 1 ? "" : "s"})`).join(", ");
  return `Column "${found.column}" is text only because of ${rows} value${rows === 1 ? "" : "s"} among ${found.numbers} numbers: ${words}; ${hint}`;
}

/** The words of the columns found, each once. */
export const foundWords = (found: readonly NumericText[]): string[] => [
  ...new Set(found.flatMap((f) => f.words.map((w) => w.word))),
];

/** `--na ?,-`: the flag of a /load that reads `words` as missing (quoted when the REPL would split them). */
export function naFlag(naWords: readonly string[]): string {
  const words = [...new Set(naWords)].join(",");
  return /[\s"'\\]/.test(words) ? `--na "${words.replace(/["\\]/g, "\\$&")}"` : `--na ${words}`;
}
