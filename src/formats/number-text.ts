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
 * Exactness: with at most 15 significant digits the digits form an integer below 2^53
 * and a power of ten up to 1e22 is exact, so one IEEE multiplication or division gives
 * the correctly rounded result (Clinger's fast path). Everything else goes to `Number()`,
 * which is correctly rounded.
 */
export function parseNumberRange(s: string, start: number, end: number): number | undefined {
  let i = start;
  let c = s.charCodeAt(i);
  let negative = false;
  if (c === 45 || c === 43) {
    negative = c === 45;
    i++;
  }
  let mantissa = 0;
  let significant = 0;
  let scale = 0;
  let digits = 0;
  while (i < end) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) break;
    if (significant > 0 || d !== 0) {
      significant++;
      if (significant <= 15) mantissa = mantissa * 10 + d;
      else scale++;
    }
    digits++;
    i++;
  }
  if (i < end && s.charCodeAt(i) === 46) {
    i++;
    while (i < end) {
      const d = s.charCodeAt(i) - 48;
      if (d < 0 || d > 9) break;
      if (significant > 0 || d !== 0) {
        significant++;
        if (significant <= 15) {
          mantissa = mantissa * 10 + d;
          scale--;
        }
      } else {
        scale--;
      }
      digits++;
      i++;
    }
  }
  if (digits === 0) return nonFinite(s, start, end);
  if (i < end) {
    c = s.charCodeAt(i);
    if (c !== 101 && c !== 69) return nonFinite(s, start, end);
    i++;
    let expNegative = false;
    c = s.charCodeAt(i);
    if (c === 45 || c === 43) {
      expNegative = c === 45;
      i++;
    }
    let exponent = 0;
    let expDigits = 0;
    while (i < end) {
      const d = s.charCodeAt(i) - 48;
      if (d < 0 || d > 9) return undefined;
      if (exponent < 100_000) exponent = exponent * 10 + d;
      expDigits++;
      i++;
    }
    if (expDigits === 0) return undefined;
    scale += expNegative ? -exponent : exponent;
  }
  if (significant > 15) return Number(s.slice(start, end));
  if (mantissa === 0) return negative ? -0 : 0;
  let x: number;
  if (scale >= 0 && scale <= 22) x = mantissa * (POW10[scale] as number);
  else if (scale < 0 && scale >= -22) x = mantissa / (POW10[-scale] as number);
  else return Number(s.slice(start, end));
  return negative ? -x : x;
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
