/**
 * Text from a service or a file, made safe to print to a terminal: control characters
 * are shown as escapes, as GNU `ls -b` shows them in file names, so a blob name or tag
 * holding OSC 52 (write the clipboard) or OSC 0 (set the window title) prints as
 * `\033]52;c;...\007` instead of acting. Unicode bidi controls, which reorder what is
 * shown (a name that reads as another), are shown as `\u202e`.
 */

const LETTERS: Readonly<Record<string, string>> = {
  "\u0007": "\\a",
  "\b": "\\b",
  "\t": "\\t",
  "\n": "\\n",
  "\v": "\\v",
  "\f": "\\f",
  "\r": "\\r",
};

// C0 controls, DEL, C1 controls, and the bidi embedding, override and isolate controls.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex
const CONTROL_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function escape(char: string): string {
  const letter = LETTERS[char];
  if (letter !== undefined) return letter;
  const code = char.charCodeAt(0);
  if (code < 0x80) return `\\${code.toString(8).padStart(3, "0")}`;
  return `\\u${code.toString(16).padStart(4, "0")}`;
}

/**
 * `text` with every control character shown as an escape (`\033`, `\t`, `\u202e`).
 * `keepNewlines` keeps line breaks of a multi-line message as they are.
 *
 * @example
 * visible("a\u001b]52;c;aGk=\u0007b"); // "a\\033]52;c;aGk=\\ab"
 */
export function visible(text: string, options: { keepNewlines?: boolean } = {}): string {
  return text.replace(options.keepNewlines ? CONTROL_BUT_NEWLINE : CONTROL, escape);
}
