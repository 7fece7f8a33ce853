/**
 * An RFC 4180 tokenizer (the field separator may be another single character: `;`, tab, `|`) that takes text in arbitrary pieces (a quoted field, a CRLF or
 * a record may span pieces) and reports whole records. A field is reported as a range
 * of a string (the piece itself when the field lies inside one piece, so numeric fields
 * are parsed without cutting a substring). Lenient where RFC 4180 is silent and the
 * meaning is plain: a quote inside an unquoted field is a literal character, LF alone
 * ends a record like CRLF. Text after a closing quote is an error.
 */
import { FormatError } from "./format-error.js";
import { numberScan, scanNumber } from "./number-text.js";

const COMMA = 44;
const QUOTE = 34;
const LF = 10;
const CR = 13;

// States (plain numbers: this loop is the hot path of every CSV read).
const FIELD_START = 0;
const UNQUOTED = 1;
const QUOTED = 2;
/** Just read a quote inside a quoted field: an escaped quote or the field's end. */
const QUOTE_IN_QUOTED = 3;
/** Just ended a record with CR: swallow one LF. */
const AFTER_CR = 4;

export class CsvTokenizer {
  /** The fields of the record being reported: field k is fieldSrc[k].slice(fieldStart[k], fieldEnd[k]). */
  readonly fieldSrc: string[] = [];
  readonly fieldStart: number[] = [];
  readonly fieldEnd: number[] = [];
  fieldCount = 0;
  /** Set by the reader: field k is expected to be a number (try parsing it while scanning). */
  readonly numberHint: boolean[] = [];
  /** fieldIsNumber[k]: the field was parsed while scanning, its value is fieldNumber[k]. */
  readonly fieldIsNumber: boolean[] = [];
  readonly fieldNumber: number[] = [];
  /** fieldIsInteger[k]: that number was an integer literal. */
  readonly fieldIsInteger: boolean[] = [];
  private scannedNumber: number | undefined;
  private scannedInteger = false;

  private state = FIELD_START;
  /** Text of the current field gathered from earlier pieces or around escaped quotes. */
  private partial = "";
  private hasPartial = false;
  /** Where the not yet gathered text of the current field starts in the current piece. */
  private from = 0;
  /** In QUOTE_IN_QUOTED: index of that quote in the current piece, -1 if in an earlier one. */
  private quoteAt = -1;
  /** Records ended so far, header included (for error messages). */
  private records = 0;
  /** The field separator's char code (a comma unless the reader detected or was told another). */
  separator = COMMA;

  /** `onRecord` reads the fields from fieldSrc/fieldStart/fieldEnd[0..fieldCount). */
  constructor(private readonly onRecord: () => void) {}

  feed(s: string): void {
    const n = s.length;
    const separator = this.separator;
    let i = 0;
    this.from = 0;
    while (i < n) {
      switch (this.state) {
        case AFTER_CR:
          if (s.charCodeAt(i) === LF) i++;
          this.state = FIELD_START;
          break;
        case FIELD_START:
          if (s.charCodeAt(i) === QUOTE) {
            this.state = QUOTED;
            this.from = ++i;
            break;
          }
          this.from = i;
          if (this.numberHint[this.fieldCount] === true) {
            // One pass for the common case: a number that ends at a delimiter.
            const x = scanNumber(s, i, n);
            const stop = numberScan.end;
            if (x !== undefined && stop < n) {
              const d = s.charCodeAt(stop);
              if (d === separator || d === LF || d === CR) {
                this.scannedNumber = x;
                this.scannedInteger = numberScan.integer;
                this.endField(s, stop, d);
                i = stop + 1;
                break;
              }
            }
          }
          this.state = UNQUOTED;
          i = this.scanUnquoted(s, i);
          break;
        case UNQUOTED:
          i = this.scanUnquoted(s, i);
          break;
        case QUOTED: {
          const q = s.indexOf('"', i);
          if (q < 0) {
            i = n;
          } else {
            this.state = QUOTE_IN_QUOTED;
            this.quoteAt = q;
            i = q + 1;
          }
          break;
        }
        case QUOTE_IN_QUOTED: {
          const c = s.charCodeAt(i);
          if (c === QUOTE) {
            // An escaped quote: keep one of the two.
            this.gather(s, this.from, this.quoteAt < 0 ? 0 : this.quoteAt + 1);
            if (this.quoteAt < 0) this.partial += '"';
            this.from = ++i;
            this.state = QUOTED;
          } else if (c === separator || c === LF || c === CR) {
            this.endField(s, this.quoteAt < 0 ? this.from : this.quoteAt, c);
            i++;
          } else {
            throw new FormatError(
              `CSV ${this.where()}, field ${this.fieldCount + 1}: unexpected text after a closing quote; ` +
                `a quote inside a quoted field must be doubled ("")`,
              { row: this.records },
            );
          }
          break;
        }
        default:
          throw new Error("unreachable CSV state");
      }
    }
    // Keep the unfinished field's text of this piece.
    if (this.state === UNQUOTED || this.state === QUOTED) this.gather(s, this.from, n);
    else if (this.state === QUOTE_IN_QUOTED && this.quoteAt >= 0) {
      this.gather(s, this.from, this.quoteAt);
      this.quoteAt = -1;
    }
  }

  private gather(s: string, start: number, end: number): void {
    this.partial = this.hasPartial ? this.partial + s.slice(start, end) : s.slice(start, end);
    this.hasPartial = true;
  }

  /** Scans an unquoted field from `i`; returns the index after its delimiter, or n. */
  private scanUnquoted(s: string, i: number): number {
    const n = s.length;
    const separator = this.separator;
    while (i < n) {
      const c = s.charCodeAt(i);
      if (c === separator || c === LF || c === CR) {
        this.endField(s, i, c);
        return i + 1;
      }
      i++;
    }
    return n;
  }

  /** Ends the current field at `end` in piece `s`, then handles its delimiter. */
  private endField(s: string, end: number, delimiter: number): void {
    const k = this.fieldCount++;
    if (this.scannedNumber !== undefined) {
      this.fieldIsNumber[k] = true;
      this.fieldNumber[k] = this.scannedNumber;
      this.fieldIsInteger[k] = this.scannedInteger;
      this.scannedNumber = undefined;
    } else {
      this.fieldIsNumber[k] = false;
    }
    if (this.hasPartial) {
      const text = this.partial + s.slice(this.from, end);
      this.fieldSrc[k] = text;
      this.fieldStart[k] = 0;
      this.fieldEnd[k] = text.length;
      this.partial = "";
      this.hasPartial = false;
    } else {
      this.fieldSrc[k] = s;
      this.fieldStart[k] = this.from;
      this.fieldEnd[k] = end;
    }
    if (delimiter === this.separator) {
      this.state = FIELD_START;
      return;
    }
    this.state = delimiter === CR ? AFTER_CR : FIELD_START;
    this.endRecord();
  }

  private endRecord(): void {
    this.records++;
    this.onRecord();
    this.fieldCount = 0;
  }

  private where(): string {
    return this.records === 0 ? "header row" : `data row ${this.records}`;
  }

  /** Call once after the last piece. */
  end(): void {
    switch (this.state) {
      case AFTER_CR:
        return;
      case FIELD_START:
        // Input ended right after a record (or is empty), or after a trailing comma.
        if (this.fieldCount === 0) return;
        break;
      case QUOTED:
        throw new FormatError(
          `CSV ${this.where()}, field ${this.fieldCount + 1}: a quoted field is not closed before the end of the data ` +
            `(the rest of the file was read into it); close the quote, or double a quote inside a quoted field ("")`,
          { row: this.records },
        );
      default:
        break;
    }
    this.from = 0;
    this.endField("", 0, LF);
  }
}
