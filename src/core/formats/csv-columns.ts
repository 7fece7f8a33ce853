/**
 * Column builders for the CSV reader: each receives its fields in row order, as a
 * range of a string, and produces a Column of the Table.
 */
import { FormatError, quoteValue } from "./format-error.js";
import { GrowableFloat64 } from "./growable.js";
import { booleanColumn, isBooleanWord } from "./csv-booleans.js";
import { integerBeyondDouble, keptAsNumber } from "./number-text.js";
import { isIntegerText, type NumberFieldParser } from "./pandas-number.js";
import type { Column } from "./table.js";

export interface CsvColumnBuilder {
  /** The field is `s.slice(start, end)`; `row` is the 1-based data row (for errors). */
  add(s: string, start: number, end: number, row: number): void;
  /** The same field, already parsed as the number x by the tokenizer (`integer`: an integer literal). */
  addNumber(x: number, s: string, start: number, end: number, integer: boolean): void;
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
  /** Text, or booleans when every value is pandas' `True`/`False` in some case. */
  finish(): Column {
    return booleanColumn(this.name, this.values) ?? { name: this.name, kind: "string", values: this.values };
  }
}

function notNumeric(name: string, row: number, text: string): FormatError {
  return new FormatError(
    `column "${name}" must be numeric, but data row ${row} holds ${quoteValue(text)}; ` +
      `fix the value, leave the field empty for a missing value, or leave the column out of the feature columns`,
    { column: name, row, value: text },
  );
}

function mixedBooleans(name: string, row: number, text: string): FormatError {
  return new FormatError(
    `column "${name}" must be numeric, but it mixes true/false with numbers (data row ${row} holds ${quoteValue(text)}); ` +
      `use numbers only (1/0) or true/false only, as scikit-learn would refuse the mix`,
    { column: name, row, value: text },
  );
}

/**
 * A column named in `numericColumns`: every non-empty field must be a number, or every one
 * pandas' `True`/`False` (a boolean feature: 1 and 0, as scikit-learn takes it).
 */
export class NumberColumnBuilder implements CsvColumnBuilder {
  private readonly values = new GrowableFloat64();
  /** Whether the values met so far were numbers (1), booleans (2) or none yet (0). */
  private holds = 0;
  /** Every field so far an integer literal, none missing (pandas' int64). */
  private integers = true;
  constructor(
    readonly name: string,
    private readonly parse: NumberFieldParser,
  ) {}
  add(s: string, start: number, end: number, row: number): void {
    if (start === end) {
      this.integers = false;
      this.values.push(NaN);
      return;
    }
    const x = this.parse(s, start, end);
    if (x !== undefined) {
      this.addNumber(x, s, start, end, this.integers && isIntegerText(s, start, end), row);
      return;
    }
    const text = s.slice(start, end);
    if (!isBooleanWord(text)) throw notNumeric(this.name, row, text);
    if (this.holds === 1) throw mixedBooleans(this.name, row, text);
    this.holds = 2;
    this.integers = false;
    this.values.push(text.length === 4 ? 1 : 0);
  }
  addNumber(x: number, s: string, start: number, end: number, integer: boolean, row = this.values.length + 1): void {
    if (this.holds === 2) throw mixedBooleans(this.name, row, s.slice(start, end));
    this.holds = 1;
    this.integers &&= integer;
    this.values.push(x);
  }
  finish(): Column {
    const values = this.values.finish();
    return values.length > 0 && this.integers
      ? { name: this.name, kind: "number", values, integers: true }
      : { name: this.name, kind: "number", values };
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
  /** Every field so far an integer literal, none missing: pandas reads the column as int64. */
  private integers = true;
  /** Some integer literal is beyond what a double holds: while `integers`, the column is text at the end. */
  private beyondDouble = false;

  /** `onText` is told when the column turns out to be text. */
  constructor(
    readonly name: string,
    private readonly archive: TextArchive,
    private readonly parse: NumberFieldParser,
    private readonly onText: () => void = () => {},
  ) {}

  addNumber(x: number, s: string, start: number, end: number, integer: boolean): void {
    const numbers = this.numbers;
    if (numbers === undefined || !keptAsNumber(x, s, start, end)) {
      this.add(s, start, end);
      return;
    }
    this.noteInteger(x, s, start, end, integer);
    this.keepPlace(s, start, end, numbers.length);
    numbers.push(x);
  }

  private noteInteger(x: number, s: string, start: number, end: number, integer: boolean): void {
    if (!this.integers) return;
    this.integers = integer;
    if (this.integers && !this.beyondDouble) this.beyondDouble = integerBeyondDouble(x, s, start, end);
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
    const x = start === end ? NaN : this.parse(s, start, end);
    if (x === undefined || !keptAsNumber(x, s, start, end)) {
      this.becomeText();
      (this.strings as StringColumnBuilder).add(s, start, end);
      return;
    }
    this.noteInteger(x, s, start, end, this.integers && start !== end && isIntegerText(s, start, end));
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
    // Integers a double cannot hold keep their digits (pandas: int64); beside a decimal or
    // a missing value they are floats, as pandas reads them.
    if (this.numbers !== undefined && this.integers && this.beyondDouble) this.becomeText();
    if (this.numbers === undefined) return (this.strings as StringColumnBuilder).finish();
    this.places = undefined;
    this.loose.clear();
    const values = this.numbers.finish();
    return values.length > 0 && this.integers
      ? { name: this.name, kind: "number", values, integers: true }
      : { name: this.name, kind: "number", values };
  }
}
