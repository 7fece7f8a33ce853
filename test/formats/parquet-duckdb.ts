/**
 * DuckDB (its Node package) as the other Parquet implementation of the tests: it writes
 * the files mdps reads, reads the files mdps writes, and computes every expected value.
 */
import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";

export interface DuckDb {
  readonly connection: DuckDBConnection;
  /** Each column of the query's result, by name, as JavaScript values (BIGINT as bigint, NULL as null). */
  columns(sql: string): Promise<Record<string, unknown[]>>;
  close(): void;
}

export async function openDuckDb(): Promise<DuckDb> {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  return {
    connection,
    async columns(sql) {
      const reader = await connection.runAndReadAll(sql);
      const names = reader.columnNames();
      const values = reader.getColumnsJS() as unknown[][];
      return Object.fromEntries(names.map((n, k) => [n, values[k] ?? []]));
    },
    close() {
      connection.closeSync();
      instance.closeSync();
    },
  };
}

/** `expr`, NULL on every 7th row (from the 4th), so every column has nulls in every row group. */
const withNulls = (expr: string) => `CASE WHEN i % 7 = 3 THEN NULL ELSE ${expr} END`;

/**
 * One column of every Parquet type DuckDB writes, named by what it holds. `i` runs over
 * the rows; values reach the ends of each type's range.
 */
export const EVERY_TYPE: ReadonlyArray<readonly [name: string, expr: string]> = [
  ["i8", withNulls("(i % 256 - 128)::TINYINT")],
  ["i16", withNulls("(i * 7 % 65536 - 32768)::SMALLINT")],
  ["i32", withNulls("(i * 429497 % 4294967296 - 2147483648)::INTEGER")],
  ["i64", withNulls("(9007199254740992 - i * 1000000000007)::BIGINT")],
  ["i64_wide", withNulls("(9223372036854775807 - i * 1000003)::BIGINT")],
  ["u8", withNulls("(i % 256)::UTINYINT")],
  ["u16", withNulls("(65535 - i)::USMALLINT")],
  ["u32", withNulls("(4294967295 - i)::UINTEGER")],
  ["u64", withNulls("(9007199254740992 - i * 7)::UBIGINT")],
  ["u64_wide", withNulls("(18446744073709551615 - i)::UBIGINT")],
  ["f32", withNulls("(i / 7 - 300)::FLOAT")],
  ["f64", withNulls("sin(i) * pow(10, i % 40 - 20)")],
  ["dec4", withNulls("((i % 1999) / 10 - 99.9)::DECIMAL(4,1)")],
  ["dec18", withNulls("((i * 7919) / 1000000 - 30)::DECIMAL(18,6)")],
  ["dec38", withNulls("(i::DECIMAL(38,10) * 12345.6789012345 - 99999999.0000000001)::DECIMAL(38,10)")],
  ["day", withNulls("DATE '1969-12-25' + (i * 37)::INTEGER")],
  ["ts", withNulls("TIMESTAMP '1969-12-31 23:59:00' + to_microseconds(i * 86400123457)")],
  ["ts_ms", withNulls("(TIMESTAMP '2001-02-03 04:05:06' + to_milliseconds(i * 1234567))::TIMESTAMP_MS")],
  ["ts_ns", withNulls("make_timestamp_ns(1704067200000000001 + i * 777777777)")],
  ["ts_utc", withNulls("make_timestamp(1700000000000000 + i * 3600000001)::TIMESTAMPTZ")],
  ["clock", withNulls("TIME '00:00:00' + to_microseconds(i * 8640000)")],
  [
    "txt",
    withNulls(
      "CASE i % 4 WHEN 0 THEN 'plain ' || i WHEN 1 THEN 'ünï, \"q\" ' || i WHEN 2 THEN '' ELSE 'line\nbreak' END",
    ),
  ],
  ["flag", withNulls("i % 3 = 0")],
  ["blob_text", withNulls("('b' || i)::BLOB")],
  ["blob_bytes", withNulls("'\\xFF\\x00\\x80'::BLOB")],
  ["doc", withNulls("to_json({'k': i, 'v': ['x' || (i % 5), 'y']})")],
  ["id", withNulls("('00000000-0000-4000-8000-' || lpad(i::VARCHAR, 12, '0'))::UUID")],
  ["list", withNulls("[i, NULL, i + 1]::INTEGER[]")],
  ["struct", withNulls("{'a': i, 'b': 'x' || i, 'c': [i % 2 = 0]}")],
  ["map", withNulls("MAP {'k' || (i % 3): i}")],
];

/** The query behind the fixtures: `rows` rows of EVERY_TYPE, in row order. */
export function everyTypeQuery(rows: number): string {
  return `SELECT ${EVERY_TYPE.map(([name, expr]) => `${expr} AS "${name}"`).join(", ")} FROM range(${rows}) t(i) ORDER BY i`;
}

/**
 * The input of the Session tests' jobs: a row number, two features (`x` with nulls, `y`
 * an INTEGER) and passthrough columns of types CSV has no words for.
 */
export const JOB_INPUT_QUERY =
  "SELECT i::INTEGER AS n, CASE WHEN i % 5 = 2 THEN NULL ELSE sin(i) * 100 END AS x, (i * 7 % 23)::INTEGER AS y, " +
  "'row ' || i AS name, DATE '2024-01-01' + i::INTEGER AS day, (i * 1.25)::DECIMAL(12,2) AS amount, " +
  "(9007199254740993 + i)::BIGINT AS big FROM range(200) t(i) ORDER BY i";

/** StandardScaler of `x` and `y` (population standard deviation, nulls skipped and kept), by DuckDB, in row order. */
export function standardScaledQuery(file: string): string {
  return (
    `SELECT (x - s.mx) / s.sx AS x, (y - s.my) / s.sy AS y FROM read_parquet('${file}') AS p, ` +
    `(SELECT avg(x) AS mx, stddev_pop(x) AS sx, avg(y) AS my, stddev_pop(y) AS sy FROM read_parquet('${file}')) AS s ORDER BY p.n`
  );
}

/** Every value within 1e-9 of DuckDB's (relative, or absolute near zero); null where DuckDB has NULL. */
export function closeTo(actual: ArrayLike<number | null>, expected: readonly unknown[]): boolean {
  if (actual.length !== expected.length) return false;
  return expected.every((e, i) => {
    const a = actual[i] ?? null;
    if (e === null) return a === null || Number.isNaN(a);
    return typeof a === "number" && Math.abs(a - Number(e)) <= 1e-9 * Math.max(1, Math.abs(Number(e)));
  });
}
