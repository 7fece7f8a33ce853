/**
 * What a Parquet column is, from its schema element: whether mdps computes on it (a
 * number column), reads it as text or booleans, or passes it through; and the text that
 * stands for a passed-through value in the other formats. Rules: docs/formats.md.
 */
import type { SchemaElement, SchemaTree } from "hyparquet";

/**
 * How a top-level column is read: `number` (ints of every width, float, double,
 * float16), `boolean`, `text` (strings, enums, JSON, UUIDs), `stored` (a value the
 * writer needs as stored: 64-bit integers, decimals, dates, times, timestamps, binary),
 * `nested` (lists, maps, structs).
 */
export type ParquetColumnRole =
  | { readonly role: "number"; readonly stored: boolean }
  | { readonly role: "boolean" }
  | { readonly role: "text" }
  | { readonly role: "decimal"; readonly scale: number }
  | { readonly role: "date" }
  | { readonly role: "timestamp"; readonly unit: TimeUnit; readonly utc: boolean }
  | { readonly role: "time"; readonly unit: TimeUnit }
  | { readonly role: "binary" }
  | { readonly role: "nested" };

export type TimeUnit = "MILLIS" | "MICROS" | "NANOS";

/** Annotations hyparquet would turn into lossy or rich values; the reader strips them and decodes the stored values itself. */
export function readsRaw(element: SchemaElement): boolean {
  const ctype = element.converted_type;
  const ltype = element.logical_type?.type;
  return (
    ctype === "DECIMAL" ||
    ctype === "INTERVAL" ||
    ctype === "BSON" ||
    ltype === "DECIMAL" ||
    ltype === "INTERVAL" ||
    ltype === "BSON" ||
    ltype === "GEOMETRY" ||
    ltype === "GEOGRAPHY" ||
    ltype === "JSON" ||
    ctype === "JSON" ||
    ctype === "ENUM" ||
    ltype === "ENUM"
  );
}

/** The role of a top-level column of the schema. */
export function columnRole(tree: SchemaTree): ParquetColumnRole {
  const element = tree.element;
  if (tree.children.length > 0 || element.type === undefined || element.repetition_type === "REPEATED") {
    return { role: "nested" };
  }
  const ctype = element.converted_type;
  const ltype = element.logical_type;
  if (ctype === "DECIMAL" || ltype?.type === "DECIMAL") {
    return { role: "decimal", scale: element.scale ?? (ltype?.type === "DECIMAL" ? ltype.scale : 0) };
  }
  if (ctype === "DATE" || ltype?.type === "DATE") return { role: "date" };
  if (ltype?.type === "TIMESTAMP") return { role: "timestamp", unit: ltype.unit, utc: ltype.isAdjustedToUTC };
  // The legacy converted types are UTC-adjusted (parquet-format LogicalTypes.md).
  if (ctype === "TIMESTAMP_MILLIS") return { role: "timestamp", unit: "MILLIS", utc: true };
  if (ctype === "TIMESTAMP_MICROS") return { role: "timestamp", unit: "MICROS", utc: true };
  if (element.type === "INT96") return { role: "timestamp", unit: "NANOS", utc: false };
  if (ltype?.type === "TIME") return { role: "time", unit: ltype.unit };
  if (ctype === "TIME_MILLIS") return { role: "time", unit: "MILLIS" };
  if (ctype === "TIME_MICROS") return { role: "time", unit: "MICROS" };
  if (ctype === "INTERVAL" || ctype === "BSON" || ltype?.type === "INTERVAL" || ltype?.type === "BSON") {
    return { role: "binary" };
  }
  if (ltype?.type === "GEOMETRY" || ltype?.type === "GEOGRAPHY") return { role: "binary" };
  switch (element.type) {
    case "BOOLEAN":
      return { role: "boolean" };
    case "INT32":
    case "FLOAT":
    case "DOUBLE":
      return { role: "number", stored: false };
    case "INT64":
      return { role: "number", stored: true };
    case "BYTE_ARRAY":
    case "FIXED_LEN_BYTE_ARRAY":
      if (ltype?.type === "FLOAT16") return { role: "number", stored: false };
      // Text when annotated so, or (unannotated) when every value is UTF-8: decided when read.
      return ctype === "UTF8" ||
        ltype?.type === "STRING" ||
        ltype?.type === "UUID" ||
        ltype?.type === "JSON" ||
        ctype === "JSON" ||
        ctype === "ENUM" ||
        ltype?.type === "ENUM"
        ? { role: "text" }
        : { role: "binary" };
    default:
      return { role: "binary" };
  }
}

/** A readable name of the column's type, as a dtype: `INT32`, `INT32 (UINT_8)`, `DECIMAL(10,2)`, `TIMESTAMP(MICROS, UTC)`, `LIST`. */
export function parquetTypeName(tree: SchemaTree): string {
  const e = tree.element;
  const l = e.logical_type;
  if (tree.children.length > 0 || e.type === undefined) return l?.type ?? e.converted_type ?? "STRUCT";
  if (l?.type === "DECIMAL" || e.converted_type === "DECIMAL")
    return `DECIMAL(${e.precision ?? (l?.type === "DECIMAL" ? l.precision : 0)},${e.scale ?? 0})`;
  if (l?.type === "TIMESTAMP" || l?.type === "TIME") return `${l.type}(${l.unit}${l.isAdjustedToUTC ? ", UTC" : ""})`;
  if (l?.type === "INTEGER") return `${e.type} (${l.isSigned ? "" : "U"}INT_${l.bitWidth})`;
  const annotation = l?.type ?? e.converted_type;
  return annotation === undefined ? e.type : `${e.type} (${annotation})`;
}

const UNITS_PER_SECOND: Record<TimeUnit, bigint> = { MILLIS: 1000n, MICROS: 1_000_000n, NANOS: 1_000_000_000n };
const FRACTION_DIGITS: Record<TimeUnit, number> = { MILLIS: 3, MICROS: 6, NANOS: 9 };

/** `2024-01-02` for a DATE (days since 1970-01-01). */
export function dateText(days: number): string {
  return new Date(days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * ISO 8601 with every digit of the unit (`2024-01-02T03:04:05.123456`), `Z` when the
 * timestamp is adjusted to UTC; a local (naive) timestamp has no zone.
 */
export function timestampText(stored: bigint, unit: TimeUnit, utc: boolean): string {
  const perSecond = UNITS_PER_SECOND[unit];
  let seconds = stored / perSecond;
  let fraction = stored % perSecond;
  if (fraction < 0n) {
    fraction += perSecond;
    seconds -= 1n;
  }
  const whole = new Date(Number(seconds) * 1000).toISOString().slice(0, -5);
  return `${whole}.${fraction.toString().padStart(FRACTION_DIGITS[unit], "0")}${utc ? "Z" : ""}`;
}

/** `13:45:00.250` for a TIME (a time of day in its unit). */
export function timeText(stored: bigint | number, unit: TimeUnit): string {
  const perSecond = UNITS_PER_SECOND[unit];
  const value = BigInt(stored);
  const seconds = Number(value / perSecond);
  const fraction = value % perSecond;
  const hh = String(Math.floor(seconds / 3600)).padStart(2, "0");
  const mm = String(Math.floor((seconds % 3600) / 60)).padStart(2, "0");
  const ss = String(seconds % 60).padStart(2, "0");
  return `${hh}:${mm}:${ss}.${fraction.toString().padStart(FRACTION_DIGITS[unit], "0")}`;
}

/** `-123.45` for the unscaled integer -12345 with scale 2. */
export function decimalText(unscaled: bigint, scale: number): string {
  const text = unscaled.toString();
  if (scale <= 0) return text + "0".repeat(-scale);
  const negative = text.startsWith("-");
  const digits = (negative ? text.slice(1) : text).padStart(scale + 1, "0");
  return `${negative ? "-" : ""}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

/** A decimal's unscaled integer from how it is stored: int32, int64, or big-endian two's complement bytes. */
export function unscaledOf(stored: number | bigint | Uint8Array): bigint {
  if (typeof stored === "number") return BigInt(stored);
  if (typeof stored === "bigint") return stored;
  let value = 0n;
  for (const byte of stored) value = (value << 8n) | BigInt(byte);
  if (stored.length > 0 && ((stored[0] as number) & 0x80) !== 0) value -= 1n << BigInt(stored.length * 8);
  return value;
}

/** JSON text of a nested value; 64-bit integers as numbers when exact, else as strings; bytes as base64. */
export function nestedText(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === "bigint") return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
    if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("base64");
    return v;
  });
}
