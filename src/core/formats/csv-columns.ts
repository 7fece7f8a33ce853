/**
 * Column builders for the CSV reader: each receives its fields in row order, as a
 * range of a string, and produces a Column of the Table.
 */
import { FormatError, quoteValue } from "./format-error.js";
import { GrowableFloat64 } from "./growable.js";
import { holdsDigits, parseNumberRange } from "./number-text.js";
import type { Column } from "./table.js";

export interface CsvColumnBuilder {
  /** The field is `s.slice(start, end)`; `row` is the 1-based data row (for errors). */
  add(s: string, start: number, end: number, row: number): void;
  /** The same field, already parsed as the number x by the tokenizer. */
  addNumber(x: number, s: string, start: number, end: number): void;
  finish(): Column;
}

/**
 * Strings cut from a large decoded piece keep the whole piece alive in V8 (sliced
 * strings), so kept cells are copied onto their own storage.
 */
export function detach(text: string): string {
  if (text.length < 13) return text; // V8 copies short slices already
  const copy = ` ${text}`;
  copy.charCodeAt(1); // flattens the concatenation into a fresh string
  return copy.slice(1);
}

export class StringColumnBuilder implements CsvColumnBuilder {
  readonly values: (string | null)[] = [];
  constructor(readonly name: string) {}
  add(s: string, start: number, end: number): void {
    this.values.push(start === end ? null : detach(s.slice(start, end)));
  }
  addNumber(_x: number, s: string, start: number, end: number): void {
    this.add(s, start, end);
  }
  finish(): Column {
    return { name: this.name, kind: "string", values: this.values };
  }
}

function notNumeric(name: string, row: number, text: string): FormatError {
  return new FormatError(
    `column "${name}" must be numeric, but data row ${row} holds ${quoteValue(text)}; ` +
      `fix the value, leave the field empty for a missing value, or leave the column out of the feature columns`,
    { column: name, row, value: text },
  );
}

/** A column named in `numericColumns`: every non-empty field must be a number. */
export class NumberColumnBuilder implements CsvColumnBuilder {
  private readonly values = new GrowableFloat64();
  constructor(readonly name: string) {}
  add(s: string, start: number, end: number, row: number): void {
    if (start === end) {
      this.values.push(NaN);
      return;
    }
    const x = parseNumberRange(s, start, end);
    if (x === undefined) throw notNumeric(this.name, row, s.slice(start, end));
    this.values.push(x);
  }
  addNumber(x: number): void {
    this.values.push(x);
  }
  finish(): Column {
    return { name: this.name, kind: "number", values: this.values.finish() };
  }
}

const MAX_START = 2 ** 21; // pieces are at most 1 Mi characters
const MAX_LENGTH = 2 ** 11;

/**
 * The decoded pieces of a CSV, kept while some `"auto"` column is still numeric, so
 * that such a column can recover the exact text of its fields if it turns out to be
 * text after all. A field's place is packed into one double: piece index, start,
 * length (2^21 * 2^21 * 2^11 < 2^53, exact).
 */
export class TextArchive {
  private readonly pieces: string[] = [];
  active = true;

  add(piece: string): void {
    if (this.active) this.pieces.push(piece);
  }

  /** Packed place of s[start..end), or -1 when s is not one of the last two pieces or the field is long. */
  locate(s: string, start: number, end: number): number {
    const length = end - start;
    let index = this.pieces.length - 1;
    if (length >= MAX_LENGTH || index < 0) return -1;
    if (this.pieces[index] !== s) {
      index--;
      if (index < 0 || this.pieces[index] !== s) return -1;
    }
    return (index * MAX_START + start) * MAX_LENGTH + length;
  }

  text(packed: number): string {
    const length = packed % MAX_LENGTH;
    const rest = (packed - length) / MAX_LENGTH;
    const start = rest % MAX_START;
    const piece = this.pieces[(rest - start) / MAX_START] as string;
    return piece.slice(start, start + length);
  }

  release(): void {
    this.active = false;
    this.pieces.length = 0;
  }
}

/**
 * Whether the field s[start..end), read as x, is held by x exactly (number-text.ts,
 * holdsDigits); the common short fields are answered without cutting them out.
 */
function exactNumber(x: number, s: string, start: number, end: number): boolean {
  const magnitude = Math.abs(x);
  if (end - start <= 15 && magnitude >= 2.2250738585072014e-308 && magnitude < 1e300) return true;
  if (x !== x || (x === 0 && end - start === 1)) return true;
  return holdsDigits(s.slice(start, end), x);
}

/**
 * `numericColumns: "auto"`, and every column not named when it is a list: numeric until
 * a field says otherwise, as pandas reads a column: a field that is not a number, or
 * whose digits a double cannot hold (`12345678901234567890`), makes the column text,
 * so those digits pass through exactly. Until then each
 * field's place in the archive is kept too, because a column that turns out to be
 * text must pass through with its exact original text.
 */
export class AutoColumnBuilder implements CsvColumnBuilder {
  private numbers: GrowableFloat64 | undefined = new GrowableFloat64();
  private places: GrowableFloat64 | undefined = new GrowableFloat64();
  /** Texts of fields the archive cannot locate (they spanned pieces), by row index. */
  private loose = new Map<number, string>();
  private strings: StringColumnBuilder | undefined;

  /** `onText` is told when the column turns out to be text. */
  constructor(
    readonly name: string,
    private readonly archive: TextArchive,
    private readonly onText: () => void = () => {},
  ) {}

  addNumber(x: number, s: string, start: number, end: number): void {
    const numbers = this.numbers;
    if (numbers === undefined || !exactNumber(x, s, start, end)) {
      this.add(s, start, end);
      return;
    }
    this.keepPlace(s, start, end, numbers.length);
    numbers.push(x);
  }

  private keepPlace(s: string, start: number, end: number, row: number): void {
    const place = this.archive.locate(s, start, end);
    if (place < 0) this.loose.set(row, s.slice(start, end));
    (this.places as GrowableFloat64).push(place);
  }

  add(s: string, start: number, end: number): void {
    const numbers = this.numbers;
    if (numbers === undefined) {
      (this.strings as StringColumnBuilder).add(s, start, end);
      return;
    }
    const x = start === end ? NaN : parseNumberRange(s, start, end);
    if (x === undefined || !exactNumber(x, s, start, end)) {
      this.becomeText();
      (this.strings as StringColumnBuilder).add(s, start, end);
      return;
    }
    this.keepPlace(s, start, end, numbers.length);
    numbers.push(x);
  }

  get numeric(): boolean {
    return this.numbers !== undefined;
  }

  private becomeText(): void {
    const strings = new StringColumnBuilder(this.name);
    const places = this.places as GrowableFloat64;
    for (let i = 0; i < places.length; i++) {
      const place = places.get(i);
      const text = place < 0 ? (this.loose.get(i) as string) : this.archive.text(place);
      strings.add(text, 0, text.length);
    }
    this.strings = strings;
    this.numbers = undefined;
    this.places = undefined;
    this.loose.clear();
    this.onText();
  }

  finish(): Column {
    if (this.numbers === undefined) return (this.strings as StringColumnBuilder).finish();
    this.places = undefined;
    this.loose.clear();
    return { name: this.name, kind: "number", values: this.numbers.finish() };
  }
}
