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
      /** Set when read from Parquet, kept for writing the column back as it was stored. */
      readonly parquet?: ParquetOriginal | undefined;
      /**
       * Set when read from CSV text whose every field was an integer literal, none missing
       * (pandas' int64): CSV writes it back as integers, where a float column is written `1.0`.
       */
      readonly integers?: true | undefined;
    }
  | {
      readonly name: string;
      readonly kind: "string";
      readonly values: ReadonlyArray<string | null>;
      /** Set for an Arrow column of another type (dates, decimals, lists...): `values` is its text. */
      readonly arrow?: ArrowOriginal | undefined;
      /** Set when read from Parquet (decimals, dates, timestamps, binary, lists...: `values` is their text). */
      readonly parquet?: ParquetOriginal | undefined;
    }
  | {
      readonly name: string;
      readonly kind: "boolean";
      readonly values: ReadonlyArray<boolean | null>;
      readonly parquet?: ParquetOriginal | undefined;
      /** Set when read from CSV that spelt its booleans otherwise than pandas' `True`/`False`, to write them back so. */
      readonly csvSpelling?: BooleanSpelling | undefined;
    };

export type ColumnKind = Column["kind"];

/** How a boolean column's values are written in CSV (`True`/`False` is pandas'). */
export interface BooleanSpelling {
  readonly true: string;
  readonly false: string;
}

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

/**
 * A Parquet column as the file declared and stored it, so writeParquet gives back the
 * same type (int widths, decimals, dates, timestamps, nested groups) when the column is
 * not transformed. The text or numbers of the Column stand in for it everywhere else.
 */
export interface ParquetOriginal {
  /** The type as a dtype, e.g. `INT32 (INT_8)`, `DECIMAL(10,2)`, `TIMESTAMP(MICROS, UTC)`, `LIST`. */
  readonly typeName: string;
  /** hyparquet's SchemaElements of the column (a group's own and all below it), typed unknown as `arrow` is. */
  readonly schema: readonly unknown[];
  /** The stored values where the Column's values do not give them back exactly (int64, decimals, dates...). */
  readonly stored?: readonly unknown[] | undefined;
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
