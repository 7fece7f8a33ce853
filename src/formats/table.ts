/**
 * The columnar table every format reads into and writes from. Feature columns are
 * Float64Array (NaN = missing) so the engine works on them without copying; other
 * columns keep their values as read, so they pass through a job unchanged.
 */
export type Column =
  | { readonly name: string; readonly kind: "number"; readonly values: Float64Array }
  | { readonly name: string; readonly kind: "string"; readonly values: ReadonlyArray<string | null> }
  | { readonly name: string; readonly kind: "boolean"; readonly values: ReadonlyArray<boolean | null> };

export type ColumnKind = Column["kind"];

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
