/**
 * Text <-> float64 for the text formats, exact both ways: parsing is correctly rounded
 * (a fast path that is exact by construction, else `Number()`), writing gives the
 * shortest text that reads back to the same double.
 */

const NON_FINITE = new Map<string, number>([
  ["nan", NaN],
  ["+nan", NaN],
  ["-nan", NaN],
  ["inf", Infinity],
  ["+inf", Infinity],
  ["-inf", -Infinity],
  ["infinity", Infinity],
  ["+infinity", Infinity],
  ["-infinity", -Infinity],
]);

const POW10: number[] = [];
for (let k = 0; k <= 22; k++) POW10.push(Number(`1e${k}`));

/**
 * The number spelled by `s[start..end)`, or undefined when it is not one.
 *
 * Accepts decimal notation, `[+-]? (digits [. digits*] | . digits) ([eE] [+-]? digits)?`,
 * and, case-insensitively, `NaN`, `inf`, `Infinity` with an optional sign (what Python
 * and JavaScript write). Rejects blank text, spaces and `0x`/`0o`/`0b` literals, which
 * `Number()` alone would take.
 *
 * The result is always the correctly rounded double, as `Number()` gives; `Number()`
 * itself is slow (about 150 ns for 17 digits), so two exact shortcuts come first:
 * - up to 15 significant digits: the digits form an integer below 2^53 and powers of
 *   ten up to 1e22 are exact, so one IEEE multiplication or division is correctly
 *   rounded (Clinger's fast path);
 * - 16 to 19 digits over a power of ten up to 1e22 (what shortest round-trip printing
 *   of arbitrary doubles gives): see `divideDigits`.
 * Everything else goes to `Number()`.
 */
export function parseNumberRange(s: string, start: number, end: number): number | undefined {
  const x = scanNumber(s, start, end);
  return x === undefined || numberScan.end !== end ? nonFinite(s, start, end) : x;
}

/**
 * Where the last scanNumber call stopped (a field is a number when that is its end), and
 * whether what it read was an integer literal (no point, no exponent).
 */
export const numberScan = { end: 0, integer: false };

/**
 * Parses the longest prefix of `s[start..limit)` in decimal notation (see
 * parseNumberRange), sets `numberScan.end` to the index after it, and returns its
 * value, or undefined when there is no digit. Lets the CSV tokenizer parse a field
 * and find its end in one pass.
 */
export function scanNumber(s: string, start: number, limit: number): number | undefined {
  let i = start;
  let c = s.charCodeAt(i);
  let negative = false;
  if (c === 45 || c === 43) {
    negative = c === 45;
    i++;
  }
  let head = 0; // the first 15 significant digits
  let tail = 0; // the next 4 at most
  let significant = 0;
  let scale = 0; // value = (head * 10^tailDigits + tail) * 10^scale
  let any = false; // saw a digit
  let integer = true;
  // Leading zeros are not significant. The loops below are the hot path of CSV reading:
  // one unsigned compare per character tells digits from the rest.
  while (i < limit && s.charCodeAt(i) === 48) {
    i++;
    any = true;
  }
  for (; i < limit; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d >>> 0 > 9) break;
    if (significant < 15) head = head * 10 + d;
    else if (significant < 19) tail = tail * 10 + d;
    else scale++;
    significant++;
  }
  if (significant > 0) any = true;
  if (i < limit && s.charCodeAt(i) === 46) {
    integer = false;
    i++;
    if (significant === 0) {
      while (i < limit && s.charCodeAt(i) === 48) {
        i++;
        scale--;
        any = true;
      }
    }
    const before = significant;
    for (; i < limit; i++) {
      const d = s.charCodeAt(i) - 48;
      if (d >>> 0 > 9) break;
      if (significant < 15) head = head * 10 + d;
      else if (significant < 19) tail = tail * 10 + d;
      else {
        significant++;
        continue;
      }
      scale--;
      significant++;
    }
    if (significant > before) any = true;
  }
  if (!any) {
    numberScan.end = i;
    return undefined;
  }
  c = i < limit ? s.charCodeAt(i) : 0;
  if (c === 101 || c === 69) {
    // An exponent counts only with at least one digit; otherwise the number ends at "e".
    let j = i + 1;
    let expNegative = false;
    c = j < limit ? s.charCodeAt(j) : 0;
    if (c === 45 || c === 43) {
      expNegative = c === 45;
      j++;
    }
    let exponent = 0;
    const digitsFrom = j;
    for (; j < limit; j++) {
      const d = s.charCodeAt(j) - 48;
      if (d >>> 0 > 9) break;
      if (exponent < 100_000) exponent = exponent * 10 + d;
    }
    if (j > digitsFrom) {
      integer = false;
      i = j;
      scale += expNegative ? -exponent : exponent;
    }
  }
  numberScan.end = i;
  numberScan.integer = integer;
  const tailDigits = significant <= 15 ? 0 : significant >= 19 ? 4 : significant - 15;
  let x: number | undefined;
  if (significant <= 15) {
    if (head === 0) return negative ? -0 : 0;
    if (scale >= 0 && scale <= 22) x = head * (POW10[scale] as number);
    else if (scale < 0 && scale >= -22) x = head / (POW10[-scale] as number);
  } else if (significant <= 19 && scale < 0 && scale >= -22) {
    x = divideDigits(head, tailDigits, tail, -scale);
  }
  if (x === undefined) return Number(s.slice(start, i));
  return negative ? -x : x;
}

const SPLITTER = 134217729; // 2^27 + 1, Veltkamp's split
const MARGIN = 2 ** -95;

/** The rounding error of p = a * b: a * b === p + error exactly (Dekker's TwoProduct). */
function productError(a: number, b: number, p: number): number {
  let t = SPLITTER * a;
  const ah = t - (t - a);
  const al = a - ah;
  t = SPLITTER * b;
  const bh = t - (t - b);
  const bl = b - bh;
  return ah * bh - p + ah * bl + al * bh + al * bl;
}

/**
 * The correctly rounded value of M / 10^k, M = head * 10^tailDigits + tail < 10^19,
 * 1 <= k <= 22, or undefined when it cannot be decided cheaply (then Number() decides).
 *
 * M is formed exactly as mh + ml (TwoProduct, TwoSum; ml is a small integer). The
 * quotient is computed in double-double: q1 = mh / D, the exact residual of q1 * D,
 * q2 = residual / D; q1 + q2 is within 2^-101 of M / D (relative), written exactly as
 * sum + t. Rounding is monotone, so if sum + t moved down and up by a bound larger than
 * that error (2^-95 relative) both round to the same double, that double is the
 * correctly rounded M / D. Otherwise M / D lies within 2^-95 of a rounding boundary
 * (about one input in 2^40) and we give up.
 */
function divideDigits(head: number, tailDigits: number, tail: number, k: number): number | undefined {
  const scaleHead = POW10[tailDigits] as number;
  const p = head * scaleHead;
  const pError = productError(head, scaleHead, p);
  const mh = p + tail;
  const back = mh - p;
  const ml = p - (mh - back) + (tail - back) + pError; // integers below 2^12: exact
  const d = POW10[k] as number;
  const q1 = mh / d;
  const p1 = q1 * d;
  const p2 = productError(q1, d, p1);
  const q2 = (mh - p1 - p2 + ml) / d; // mh - p1 is exact (Sterbenz)
  const sum = q1 + q2;
  const t = q2 - (sum - q1);
  const margin = sum * MARGIN;
  const low = sum + (t - margin);
  return low === sum + (t + margin) ? low : undefined;
}

function nonFinite(s: string, start: number, end: number): number | undefined {
  return end - start > 9 ? undefined : NON_FINITE.get(s.slice(start, end).toLowerCase());
}

/** The number a whole text spells, or undefined (see parseNumberRange). */
export function parseNumberText(text: string): number | undefined {
  return text.length === 0 ? undefined : parseNumberRange(text, 0, text.length);
}

/** Shortest round-trip text of a double; -0 keeps its sign. NaN is the caller's business. */
export function formatNumber(x: number): string {
  if (x === 0) return Object.is(x, -0) ? "-0" : "0";
  return String(x);
}

/** A decimal's value as `digits` (no leading or trailing zeros) and the power of ten of its last digit. */
function decimalValue(text: string): { negative: boolean; digits: string; exponent: number } {
  const negative = text.startsWith("-");
  const unsigned = text.replace(/^[+-]/, "");
  const e = unsigned.search(/[eE]/);
  const mantissa = e < 0 ? unsigned : unsigned.slice(0, e);
  let exponent = e < 0 ? 0 : Number(unsigned.slice(e + 1));
  const point = mantissa.indexOf(".");
  if (point >= 0) exponent -= mantissa.length - point - 1;
  let digits = mantissa.replace(".", "").replace(/^0+/, "");
  const trimmed = digits.replace(/0+$/, "");
  exponent += digits.length - trimmed.length;
  digits = trimmed;
  return { negative: negative && digits !== "", digits, exponent: digits === "" ? 0 : exponent };
}

/**
 * Whether the double `x` read from the decimal `text` (a number field of a text format)
 * has the same value as the text: `007`, `1.50` and `1e3` do; `12345678901234567890`,
 * `0.10000000000000000555`, `1e400` and `1e-400` do not (a double cannot hold them).
 * Any text of up to 15 significant digits in the normal range does, so only longer
 * fields are compared digit by digit.
 */
export function holdsDigits(text: string, x: number): boolean {
  if (x !== x) return true;
  if (!Number.isFinite(x)) return /inf/i.test(text);
  const magnitude = Math.abs(x);
  if (text.length <= 15 && (magnitude === 0 || (magnitude >= 2.2250738585072014e-308 && magnitude < 1e300))) {
    return magnitude !== 0 || !/[1-9]/.test(text.replace(/[eE].*$/, ""));
  }
  const a = decimalValue(text);
  const b = decimalValue(formatNumber(x));
  return a.digits === b.digits && a.exponent === b.exponent && (a.negative === b.negative || a.digits === "");
}

/**
 * Whether a text format's number field, read as `x`, stays a number, as pandas reads it:
 * every decimal does, whatever its digits (`44.057560280291973`; `0.10000000000000000555`
 * is 0.1, `1e-400` is 0), except a number too large for a double (`1e400`), which pandas
 * reads as text. (Integers beyond 2^53: see integerBeyondDouble.)
 */
export function keptAsNumber(x: number, s: string, start: number, end: number): boolean {
  return x === x && (x === Infinity || x === -Infinity) ? /inf/i.test(s.slice(start, end)) : true;
}

/**
 * Whether the field is an integer literal whose digits the double `x` does not hold
 * (`12345678901234567891`). pandas reads a column of integers as int64 (or uint64),
 * exactly; a column mdps reads as numbers is float64, so such a column is kept as its text.
 */
export function integerBeyondDouble(x: number, s: string, start: number, end: number): boolean {
  const magnitude = Math.abs(x);
  if (magnitude < 9007199254740992 || x !== x) return false;
  const text = s.slice(start, end).trim();
  return /^[+-]?\d+$/.test(text) && !holdsDigits(text, x);
}
