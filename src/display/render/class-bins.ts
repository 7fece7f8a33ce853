/**
 * A histogram panel's bars split by a column's classes (the target, say): which column
 * may split them (few classes), the legend's entries, and each class's bars over the
 * panel's bins.
 */
import { classKey, colouring, NOMINAL_MAX, type Colouring } from "./colouring.js";
import { histogram, type ColumnSource } from "./histogram.js";

const MISSING_CLASS = "(missing)";

/** The classes of `color` for each data set, checked to be few. */
export function classColouring(
  sources: Readonly<Record<string, ColumnSource>>,
  color: string,
): (i: number) => Colouring {
  const colourOf = colouring(Object.entries(sources), color);
  const { nominal, domain } = colourOf(0);
  if (!nominal || domain.length > NOMINAL_MAX) {
    throw new Error(
      `color: column "${color}" has ${nominal ? `${domain.length} values` : "values of a quantity"}; ` +
        `histograms split their bars by a column of at most ${NOMINAL_MAX} classes (text or whole numbers, e.g. the target)`,
    );
  }
  return colourOf;
}

/** A row's class as the colouring's domain names it, "(missing)" for none. */
const classOf = (value: unknown): number | string => classKey(value) ?? MISSING_CLASS;

/** The legend's entries: the classes in order, then "(missing)" when a row has none. */
export function classNames(colour: Colouring): string[] {
  const missing = colour.values?.some((v) => classOf(v) === MISSING_CLASS) ?? false;
  return [...colour.domain.map(String), ...(missing ? [MISSING_CLASS] : [])];
}

/** One panel's bars split by class: each class's histogram over the panel's bins (`range`). */
export function classBins(
  values: Float64Array,
  colour: Colouring,
  bounds: readonly [number, number] | undefined,
  binCount: number,
  range: readonly [number, number] | undefined,
): Array<{ start: number; end: number; count: number; group: string }> {
  if (!range) return [];
  const inside = (v: number) => Number.isFinite(v) && !(bounds && (v < bounds[0] || v > bounds[1]));
  const groups = new Map<unknown, number[]>();
  values.forEach((v, row) => {
    if (!inside(v)) return;
    const key = classOf(colour.values?.[row]);
    const members = groups.get(key) ?? [];
    members.push(v);
    groups.set(key, members);
  });
  return [...groups].flatMap(([key, members]) =>
    histogram(members, binCount, range).bins.map((bin) => ({ ...bin, group: String(key) })),
  );
}
