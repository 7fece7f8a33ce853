/**
 * Numbers in CSV text as pandas spells them: what `read_csv`'s C parser takes beyond the
 * plain decimal notation of number-text.ts (spaces around a number, `thousands` and
 * `decimal` characters), and how `to_csv` writes a float64 (Python's `repr`). Checked
 * against pandas 1.5.3 by test/fixtures/pandas-fidelity/. Booleans: csv-booleans.ts.
 */
import { numberScan, parseNumberRange, scanNumber } from "./number-text.js";

/** pandas' `isspace_ascii`: space, tab, LF, VT, FF, CR (not U+00A0 or other Unicode spaces). */
function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

/** How a CSV reader turns a field into a number; undefined when the field is not one. */
export type NumberFieldParser = (s: string, start: number, end: number) => number | undefined;

export interface PandasNumberOptions {
  /** Read a number with spaces around it (`" 2.5"`, `"2.5 "`) as pandas' C parser does. */
  readonly spaces?: boolean;
  /** pandas' `thousands`: a character skipped after a digit of the integer part (`"1,065"` is 1065). */
  readonly thousands?: string | undefined;
  /** pandas' `decimal`: the character that stands for the decimal point (`","` reads `"2,5"` as 2.5). */
  readonly decimal?: string | undefined;
}

/**
 * A field parser for a reader's options: the contract's decimal notation, plus, as
 * pandas reads them, surrounding spaces, a thousands separator and another decimal
 * character. Only decimal notation may have spaces around it: pandas reads `" inf"`
 * and `" nan "` as text.
 */
export function numberFieldParser(options: PandasNumberOptions): NumberFieldParser {
  const { spaces = false, thousands, decimal } = options;
  if (thousands === undefined && (decimal === undefined || decimal === ".")) {
    if (!spaces) return parseNumberRange;
    return (s, start, end) => parseNumberRange(s, start, end) ?? spacedNumber(s, start, end);
  }
  return (s, start, end) => {
    let a = start;
    let b = end;
    if (spaces) {
      while (a < b && isSpace(s.charCodeAt(a))) a++;
      while (b > a && isSpace(s.charCodeAt(b - 1))) b--;
    }
    const text = localNumber(s.slice(a, b), thousands, decimal);
    if (text === undefined) return undefined;
    return a === start && b === end ? parseNumberRange(text, 0, text.length) : decimalNumber(text, 0, text.length);
  };
}

/** `s[start..end)` with spaces around a number in decimal notation, or undefined. */
function spacedNumber(s: string, start: number, end: number): number | undefined {
  let a = start;
  let b = end;
  while (a < b && isSpace(s.charCodeAt(a))) a++;
  while (b > a && isSpace(s.charCodeAt(b - 1))) b--;
  return a === start && b === end ? undefined : decimalNumber(s, a, b);
}

/** `s[start..end)` in decimal notation only (no words such as inf), or undefined. */
function decimalNumber(s: string, start: number, end: number): number | undefined {
  if (start === end) return undefined;
  const x = scanNumber(s, start, end);
  return x !== undefined && numberScan.end === end ? x : undefined;
}

/**
 * The text in the contract's notation: one `thousands` character after each digit of the
 * integer part dropped (pandas' xstrtod skips exactly that: `"1,0,65"` is 1065, `",1"`
 * and `"1,,0"` are text), `decimal` as `.`. Undefined when a `.` stands where `decimal`
 * is another character (pandas reads `"2.5"` as text under `decimal=","`).
 */
function localNumber(text: string, thousands: string | undefined, decimal: string | undefined): string | undefined {
  let out = "";
  let i = 0;
  const c0 = text[0];
  if (c0 === "+" || c0 === "-") {
    out = c0;
    i = 1;
  }
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) break;
    out += String.fromCharCode(c);
    i++;
    if (thousands !== undefined && text[i] === thousands) i++;
  }
  let rest = text.slice(i);
  if (decimal !== undefined && decimal !== ".") {
    if (rest.startsWith(".")) return undefined;
    if (rest.startsWith(decimal)) rest = "." + rest.slice(decimal.length);
  }
  return out + rest;
}

/** An integer literal: optional sign, digits, nothing else (pandas reads a column of them as int64). */
export function isIntegerText(s: string, start: number, end: number): boolean {
  let i = start;
  while (i < end && isSpace(s.charCodeAt(i))) i++;
  let b = end;
  while (b > i && isSpace(s.charCodeAt(b - 1))) b--;
  const c = s.charCodeAt(i);
  if (c === 43 || c === 45) i++;
  if (i >= b) return false;
  for (; i < b; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d >>> 0 > 9) return false;
  }
  return true;
}

/**
 * A float64 as pandas' `to_csv` writes it: Python's `repr`, the shortest digits that read
 * back to the same double, in fixed notation with `.0` for a whole number while the decimal
 * exponent is in -4..15 (`1.0`, `1100.0`, `0.0001`, `-0.0`), else scientific with a signed
 * exponent of at least two digits (`1e-05`, `1e+16`, `1.5e+300`); `inf`, `-inf`. NaN is the
 * caller's business (an empty field).
 */
export function pythonFloatRepr(x: number): string {
  if (x === Infinity) return "inf";
  if (x === -Infinity) return "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const magnitude = Math.abs(x);
  // Here both write fixed notation with the same digits (a double below 1e16 never prints
  // as 1e16, nor one below 1e-4 as 0.0001: those read back as other doubles).
  if (magnitude >= 1e-4 && magnitude < 1e16) {
    const fixed = String(x);
    return fixed.includes(".") ? fixed : `${fixed}.0`;
  }
  // toExponential() without digits gives the shortest round-trip digits, as repr does.
  const [mantissa, exp] = x.toExponential().split("e") as [string, string];
  const exponent = Number(exp);
  const negative = mantissa.startsWith("-");
  const digits = mantissa.replace(/^-/, "").replace(".", "");
  const sign = negative ? "-" : "";
  if (exponent < -4 || exponent >= 16) {
    const mag = Math.abs(exponent);
    return `${sign}${digits[0]}${digits.length > 1 ? "." + digits.slice(1) : ""}e${exponent < 0 ? "-" : "+"}${mag < 10 ? "0" : ""}${mag}`;
  }
  if (exponent < 0) return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, "0");
  const fraction = digits.slice(exponent + 1);
  return `${sign}${whole}.${fraction === "" ? "0" : fraction}`;
}
