/**
 * What a CSV written by someone else may look like beyond RFC 4180, and how pandas'
 * `read_csv` reads it: another field separator, missing values spelt as words, rows cut
 * short. The service reads the contract's CSV only; the Session and the REPL read a
 * user's file as pandas would (docs/formats.md, "Reading like pandas").
 */

/**
 * pandas' default missing-value strings, exactly: `pandas._libs.parsers.STR_NA_VALUES`
 * of pandas 1.5.3 (Debian 12's python3-pandas 1.5.3+dfsg-2), read with
 * `python3 -c "from pandas._libs.parsers import STR_NA_VALUES; print(sorted(STR_NA_VALUES))"`.
 * pandas 2 adds "None"; this list follows the pandas Debian ships.
 */
export const PANDAS_NA_VALUES: readonly string[] = [
  "",
  "#N/A",
  "#N/A N/A",
  "#NA",
  "-1.#IND",
  "-1.#QNAN",
  "-NaN",
  "-nan",
  "1.#IND",
  "1.#QNAN",
  "<NA>",
  "N/A",
  "NA",
  "NULL",
  "NaN",
  "n/a",
  "nan",
  "null",
];

/** The separators detection chooses among, in the order that breaks ties. */
export const CSV_DELIMITERS = [",", ";", "\t", "|"] as const;
export type CsvDelimiter = (typeof CSV_DELIMITERS)[number];

/** How many lines of the start of a file detection looks at. */
const SNIFF_LINES = 20;

/** Per line (quotes respected, at most SNIFF_LINES lines), how often each candidate occurs. */
function countPerLine(head: string, complete: boolean): number[][] {
  const lines: number[][] = [];
  let counts = CSV_DELIMITERS.map(() => 0);
  let quoted = false;
  let blank = true;
  for (let i = 0; i < head.length && lines.length < SNIFF_LINES; i++) {
    const c = head[i] as string;
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === "\n" || c === "\r")) {
      if (!blank) lines.push(counts);
      counts = CSV_DELIMITERS.map(() => 0);
      blank = true;
      continue;
    } else if (!quoted) {
      const k = (CSV_DELIMITERS as readonly string[]).indexOf(c);
      if (k >= 0) counts[k] = (counts[k] as number) + 1;
    }
    blank = false;
  }
  // A last line without its line break is whole only at the end of the data.
  if (!blank && (complete || lines.length === 0) && lines.length < SNIFF_LINES) lines.push(counts);
  return lines;
}

/**
 * The field separator the start of a CSV uses: among `,` `;` tab `|`, the one that
 * occurs in the header and the same number of times on each of the next lines (the
 * most often when several do, `,` first on a tie); failing that, the one the header
 * holds most; `,` when the header holds none (a one-column file).
 *
 * @example sniffDelimiter("a;b\n1,5;2\n") // ";"
 */
export function sniffDelimiter(head: string, complete = true): CsvDelimiter {
  const lines = countPerLine(head, complete);
  const header = lines[0];
  if (header === undefined) return ",";
  let best = -1;
  let bestCount = 0;
  let fallback = -1;
  let fallbackCount = 0;
  CSV_DELIMITERS.forEach((_, k) => {
    const n = header[k] as number;
    if (n === 0) return;
    if (n > fallbackCount) {
      fallback = k;
      fallbackCount = n;
    }
    if (lines.every((line) => line[k] === n) && n > bestCount) {
      best = k;
      bestCount = n;
    }
  });
  const chosen = best >= 0 ? best : fallback;
  return chosen >= 0 ? (CSV_DELIMITERS[chosen] as CsvDelimiter) : ",";
}

/** How a delimiter is named in messages. */
export function delimiterName(delimiter: string): string {
  return delimiter === "\t" ? "tab" : `"${delimiter}"`;
}

/**
 * What a lenient read met that the contract's CSV does not allow; all zero and `,`
 * means the file is contract-clean and can be uploaded as it is.
 */
export interface CsvReadReport {
  /** The separator used (given or detected). */
  delimiter: string;
  /** Fields read as missing because they spelt one of the missing-value words (not empty). */
  missingWords: number;
  /** The distinct words met, e.g. `NA`, `N/A`. */
  readonly wordsSeen: Set<string>;
  /** Data rows with fewer fields than the header, filled with missing values. */
  shortRows: number;
  /** The first such row (1-based data row). */
  firstShortRow: number | undefined;
  /** Fields read as numbers only because spaces around a number are allowed (`" 2.5"`). */
  spacedNumbers: number;
}

export function emptyCsvReadReport(): CsvReadReport {
  return {
    delimiter: ",",
    missingWords: 0,
    wordsSeen: new Set(),
    shortRows: 0,
    firstShortRow: undefined,
    spacedNumbers: 0,
  };
}

/** True when the file read as the contract's CSV would give the same table. */
export function isContractClean(report: CsvReadReport): boolean {
  return report.delimiter === "," && report.missingWords === 0 && report.shortRows === 0 && report.spacedNumbers === 0;
}

/** One sentence on what differs from the contract's CSV, for the Session's notice. */
export function describeReport(report: CsvReadReport): string {
  const parts: string[] = [];
  if (report.delimiter !== ",") parts.push(`fields separated by ${delimiterName(report.delimiter)}`);
  if (report.missingWords > 0) {
    const words = [...report.wordsSeen].map((w) => JSON.stringify(w)).join(", ");
    parts.push(`${report.missingWords} missing value${report.missingWords === 1 ? "" : "s"} spelt ${words}`);
  }
  if (report.shortRows > 0) {
    parts.push(
      `${report.shortRows} row${report.shortRows === 1 ? "" : "s"} with fewer fields than the header ` +
        `(first: data row ${report.firstShortRow}), filled with missing values`,
    );
  }
  if (report.spacedNumbers > 0) {
    const n = report.spacedNumbers;
    parts.push(`${n} number${n === 1 ? "" : "s"} with spaces around ${n === 1 ? "it" : "them"}`);
  }
  return parts.join("; ");
}
