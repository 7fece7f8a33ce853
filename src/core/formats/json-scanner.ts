/**
 * Splits a top-level JSON array into runs of complete elements as text arrives, so
 * each run can go to the native `JSON.parse` (fast and exact) while the whole text is
 * never held. Only strings, escapes and nesting are tracked here; JSON.parse checks
 * the grammar of every element.
 */
import { FormatError } from "./format-error.js";

const enum Where {
  BeforeArray,
  BetweenElements,
  InElement,
  AfterArray,
}

export class JsonArrayScanner {
  private where = Where.BeforeArray;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private afterComma = false;
  /** Text of the element still open at the end of the previous piece. */
  private pending = "";
  /** Complete elements seen, and how many of them were handed out. */
  private elements = 0;
  private handed = 0;

  /** `onRun` receives text holding whole elements separated by commas (no brackets). */
  constructor(private readonly onRun: (text: string, firstElement: number) => void) {}

  feed(s: string): void {
    const n = s.length;
    const continuing = this.where === Where.InElement;
    let runStart = continuing ? 0 : -1; // first unparsed element in s
    let openStart = continuing ? 0 : -1; // element open at the end of s
    let lastEnd = -1; // index after the last complete element in s
    let backslash = -2; // next backslash in s at or after the last search; -1: none left
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (this.where === Where.InElement) {
        if (this.inString) {
          if (this.escaped) this.escaped = false;
          else if (c === 92) this.escaped = true;
          else if (c === 34) this.inString = false;
          else {
            // Jump to the next quote or backslash (the backslash search is cached: most
            // text has none, and searching again for every string would be quadratic).
            const q = s.indexOf('"', i);
            if (backslash !== -1 && backslash < i) backslash = s.indexOf("\\", i);
            const next = backslash >= 0 && (q < 0 || backslash < q) ? backslash : q;
            if (next < 0) break;
            i = next - 1;
          }
        } else if (c === 34) this.inString = true;
        else if (c === 123 || c === 91) this.depth++;
        else if ((c === 125 || c === 93) && --this.depth === 0) {
          this.where = Where.BetweenElements;
          this.elements++;
          lastEnd = i + 1;
        }
        continue;
      }
      if (c === 32 || c === 10 || c === 13 || c === 9 || c === 0xfeff) continue;
      switch (this.where) {
        case Where.BeforeArray:
          if (c !== 91) throw new FormatError("JSON records must be an array of row objects: `[{...}, {...}]`");
          this.where = Where.BetweenElements;
          break;
        case Where.BetweenElements:
          // After an element: "," or "]". After "[" or ",": an element ("]" only right after "[").
          if (this.elements > 0 && !this.afterComma) {
            if (c === 44) this.afterComma = true;
            else if (c === 93) this.where = Where.AfterArray;
            else throw this.unexpected(c);
            break;
          }
          if (c === 93 && this.elements === 0) {
            this.where = Where.AfterArray;
            break;
          }
          if (c === 44 || c === 93) throw this.unexpected(c);
          if (c !== 123) {
            throw new FormatError(
              `JSON element ${this.elements + 1} is not an object; each element must be a row object`,
              {
                row: this.elements + 1,
              },
            );
          }
          if (runStart < 0) runStart = i;
          openStart = i;
          this.afterComma = false;
          this.where = Where.InElement;
          this.depth = 1;
          break;
        default:
          throw new FormatError("unexpected text after the end of the JSON array");
      }
    }
    if (lastEnd >= 0) {
      this.onRun(this.pending + s.slice(runStart, lastEnd), this.handed + 1);
      this.handed = this.elements;
      this.pending = "";
    }
    if (this.where === Where.InElement) this.pending += s.slice(openStart);
  }

  private unexpected(c: number): FormatError {
    return new FormatError(
      `invalid JSON after row ${this.elements}: unexpected ${JSON.stringify(String.fromCharCode(c))}; ` +
        "rows must be separated by single commas, with no comma after the last",
      { row: this.elements },
    );
  }

  end(): void {
    if (this.where !== Where.AfterArray) {
      throw new FormatError(
        this.where === Where.BeforeArray
          ? "the JSON is empty; expected an array of row objects"
          : "the JSON ends before its closing bracket; the file is truncated",
        { row: this.elements + 1 },
      );
    }
  }
}
