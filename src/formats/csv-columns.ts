/**
 * Column builders for the CSV reader: each receives its fields in row order, as a
 * range of a string, and produces a Column of the Table.
 */
import { FormatError, quoteValue } from "./format-error.js";
import { GrowableFloat64 } from "./growable.js";
import { parseNumberRange } from "./number-text.js";
import type { Column } from "./table.js";

export interface CsvColumnBuilder {
  /** The field is `s.slice(start, end)`; `row` is the 1-based data row (for errors). */
  add(s: string, start: number, end: number, row: number): void;
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
  finish(): Column {
    return { name: this.name, kind: "number", values: this.values.finish() };
  }
}

const TEXT_BLOCK_ROWS = 4096;

/**
 * `numericColumns: "auto"`: numeric until a field says otherwise. Until then the field
 * texts are kept too, packed into joined blocks, because a column that turns out to be
 * text must pass through with its exact original bytes ("007" stays "007").
 */
export class AutoColumnBuilder implements CsvColumnBuilder {
  private numbers: GrowableFloat64 | undefined = new GrowableFloat64();
  private strings: StringColumnBuilder | undefined;
  private blocks: string[] = [];
  private block: string[] = [];
  constructor(readonly name: string) {}

  add(s: string, start: number, end: number, row: number): void {
    const numbers = this.numbers;
    if (numbers === undefined) {
      (this.strings as StringColumnBuilder).add(s, start, end);
      return;
    }
    const x = start === end ? NaN : parseNumberRange(s, start, end);
    if (x === undefined) {
      this.becomeText();
      (this.strings as StringColumnBuilder).add(s, start, end);
      return;
    }
    numbers.push(x);
    this.block.push(s.slice(start, end));
    if (this.block.length === TEXT_BLOCK_ROWS) {
      // One flat string per block; texts of numbers never contain "\n".
      this.blocks.push(this.block.join("\n") + "\n");
      this.block = [];
    }
    void row;
  }

  private becomeText(): void {
    const strings = new StringColumnBuilder(this.name);
    const blocks = this.blocks;
    if (this.block.length > 0) blocks.push(this.block.join("\n") + "\n");
    for (const block of blocks) {
      let from = 0;
      for (let nl = block.indexOf("\n"); nl >= 0; nl = block.indexOf("\n", from)) {
        strings.add(block, from, nl);
        from = nl + 1;
      }
    }
    this.strings = strings;
    this.numbers = undefined;
    this.blocks = [];
    this.block = [];
  }

  finish(): Column {
    if (this.numbers === undefined) return (this.strings as StringColumnBuilder).finish();
    this.blocks = [];
    this.block = [];
    return { name: this.name, kind: "number", values: this.numbers.finish() };
  }
}
