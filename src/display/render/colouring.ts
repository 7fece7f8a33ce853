/**
 * Colouring plots by a column (a class, the target): which value each row has, and
 * whether the column reads as classes (a colour each, a legend) or as a quantity (a
 * colour bar). Shared by the joint plot and the histograms, so both colour alike.
 */
import type { ColumnSource } from "./histogram.js";
import { rawColumn, rowCount } from "./plot-data.js";

/** At most this many distinct whole numbers read as classes, not as a quantity. */
export const NOMINAL_MAX = 10;

export interface Colouring {
  /** The column's value of each row of the data set, or undefined without a colour column. */
  values: unknown[] | undefined;
  /** One colour per value (text, or few whole numbers) rather than a colour bar. */
  nominal: boolean;
  /** The values in order (nominal), else the smallest and largest number. */
  domain: unknown[];
}

/** A value's class: the number, or the text of anything else; undefined when missing. */
export function classKey(value: unknown): number | string | undefined {
  if (value === null || value === undefined || value === "") return undefined;
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a cell is text, a boolean or a date: String() reads as a person would
  return typeof value === "number" ? value : String(value);
}

/**
 * How the rows of each data set are coloured by `column`: looked up in each data set,
 * else in the first that has it (the rows are the same rows); one domain for all, so a
 * value has one colour in every panel. Throws, saying what to do, when no data set has
 * the column or a data set's rows do not match the column's.
 */
export function colouring(
  frames: ReadonlyArray<readonly [string, ColumnSource]>,
  column: string | undefined,
): (i: number) => Colouring {
  if (column === undefined) return () => ({ values: undefined, nominal: false, domain: [] });
  const perFrame = frames.map(([, source]) => rawColumn(source, column));
  const fallbackAt = perFrame.findIndex((v) => v !== undefined);
  if (fallbackAt < 0) {
    throw new Error(
      `color: column "${column}" is in none of the data sets; pass a column of the first, e.g. the target`,
    );
  }
  const fallback = perFrame[fallbackAt]!;
  const all = perFrame.flatMap((v) => v ?? []).map(classKey);
  const distinct = [...new Set(all.filter((v) => v !== undefined))];
  const nominal =
    distinct.some((v) => typeof v !== "number") ||
    (distinct.length <= NOMINAL_MAX && distinct.every((v) => Number.isInteger(v)));
  const numbers = distinct.filter((v): v is number => typeof v === "number" && Number.isFinite(v));
  const domain = nominal
    ? [...distinct].sort((a, b) =>
        typeof a === "number" && typeof b === "number" ? a - b : String(a).localeCompare(String(b)),
      )
    : [Math.min(...numbers), Math.max(...numbers)];
  return (i) => {
    const values = perFrame[i] ?? fallback;
    const rows = rowCount(frames[i]![1]);
    if (values.length !== rows) {
      throw new Error(
        `color: "${frames[i]![0]}" has ${rows} rows but column "${column}" (from "${frames[fallbackAt]![0]}") has ${values.length}; ` +
          "colour by a column of each data set, or plot data sets with the same rows",
      );
    }
    return { values, nominal, domain };
  };
}
