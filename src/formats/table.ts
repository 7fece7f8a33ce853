/**
 * The columnar table every format reads into and writes from. Feature columns are
 * Float64Array (NaN = missing) so the engine works on them without copying; other
 * columns keep their values as read, so they pass through a job unchanged.
 */
export type Column =
  | {
      readonly name: string;
      readonly kind: "number";
      readonly values: Float64Array;
      /** Set when read from an Arrow column of another numeric type (int64, float32...), kept for writing it back. */
      readonly arrow?: ArrowOriginal | undefined;
    }
  | {
      readonly name: string;
      readonly kind: "string";
      readonly values: ReadonlyArray<string | null>;
      /** Set for an Arrow column of another type (dates, decimals, lists...): `values` is its text. */
      readonly arrow?: ArrowOriginal | undefined;
    }
  | { readonly name: string; readonly kind: "boolean"; readonly values: ReadonlyArray<boolean | null> };

export type ColumnKind = Column["kind"];

/**
 * An Arrow column mdps does not compute on, kept as read so the Arrow writer gives it
 * back unchanged (type, unit, scale, dictionary, metadata). The text of its values
 * stands in for it everywhere else (CSV, JSON, DataFrames).
 */
export interface ArrowOriginal {
  /** The type as Arrow names it, e.g. `Date64<MILLISECOND>`, `Decimal[10e+2]`. */
  readonly typeName: string;
  /** apache-arrow's Field and Vector (typed `unknown` so the Table does not depend on apache-arrow). */
  readonly field: unknown;
  readonly vector: unknown;
}

export interface Table {
  readonly columns: readonly Column[];
  readonly rowCount: number;
}

export function columnNames(table: Table): string[] {
  return table.columns.map((c) => c.name);
}

export function findColumn(table: Table, name: string): Column | undefined {
  return table.columns.find((c) => c.name === name);
}
