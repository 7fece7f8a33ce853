/**
 * Splits a command line into words the way a shell would for simple cases:
 * whitespace separates, "double" and 'single' quotes group, backslash escapes
 * the next character. Each word keeps its span so completion can replace it.
 */

export interface Word {
  readonly text: string;
  /** Offset of the first character (a quote, when quoted). */
  readonly start: number;
  /** Offset just past the last character. */
  readonly end: number;
  readonly quoted: boolean;
}

export interface Tokenized {
  readonly words: readonly Word[];
  /** A quote was opened and not closed. */
  readonly unterminated: boolean;
  /** The line ends in whitespace: the next word has not started yet. */
  readonly trailingSpace: boolean;
}

export function tokenize(line: string): Tokenized {
  const words: Word[] = [];
  let i = 0;
  let unterminated = false;
  while (i < line.length) {
    while (i < line.length && /\s/.test(line[i]!)) i++;
    if (i >= line.length) break;
    const start = i;
    let text = "";
    let quoted = false;
    let quote: string | undefined;
    while (i < line.length) {
      const ch = line[i]!;
      if (quote !== undefined) {
        if (ch === quote) quote = undefined;
        else if (ch === "\\" && quote === '"' && i + 1 < line.length) text += line[++i]!;
        else text += ch;
      } else if (ch === '"' || ch === "'") {
        quote = ch;
        quoted = true;
      } else if (ch === "\\" && i + 1 < line.length) {
        text += line[++i]!;
      } else if (/\s/.test(ch)) {
        break;
      } else {
        text += ch;
      }
      i++;
    }
    if (quote !== undefined) unterminated = true;
    words.push({ text, start, end: i, quoted });
  }
  const trailingSpace = line.length > 0 && /\s/.test(line[line.length - 1]!) && !unterminated;
  return { words, unterminated, trailingSpace };
}

/** Quotes a word when it would not survive {@link tokenize} as is. */
export function quoteWord(text: string): string {
  if (text !== "" && !/[\s"'\\]/.test(text)) return text;
  return `"${text.replace(/(["\\])/g, "\\$1")}"`;
}
