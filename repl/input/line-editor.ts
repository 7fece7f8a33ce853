/**
 * The prompt's editing rules as a pure function of (state, key): insert, delete,
 * move by character or word, the readline shortcuts people expect (Ctrl+A/E/U/K/W).
 * Kept apart from Ink so every rule is tested without a terminal.
 *
 * `cursor` is a UTF-16 index (what `String.slice` takes) that always sits on a
 * grapheme cluster boundary: one Backspace or arrow press crosses one character as
 * the user sees it (an emoji, a flag, a letter with a combining accent).
 */
import type { Key } from "ink";

export interface LineState {
  readonly value: string;
  readonly cursor: number;
}

export const EMPTY_LINE: LineState = { value: "", cursor: 0 };

export function lineAt(value: string): LineState {
  return { value, cursor: value.length };
}

type KeyLike = Pick<Key, "leftArrow" | "rightArrow" | "home" | "end" | "backspace" | "delete" | "ctrl" | "meta"> &
  Partial<Key>;

/** The new state, or undefined when the key is not an editing key (the caller handles it). */
export function editLine(state: LineState, input: string, key: KeyLike): LineState | undefined {
  const { value, cursor } = state;
  if (key.leftArrow)
    return { value, cursor: key.ctrl || key.meta ? wordStart(value, cursor) : previousBoundary(value, cursor) };
  if (key.rightArrow)
    return { value, cursor: key.ctrl || key.meta ? wordEnd(value, cursor) : nextBoundary(value, cursor) };
  if (key.home) return { value, cursor: 0 };
  if (key.end) return { value, cursor: value.length };
  // Most terminals send DEL (0x7f) for Backspace, which Ink reports as `delete`.
  if (key.backspace || key.delete) {
    if (cursor === 0) return state;
    const start = previousBoundary(value, cursor);
    return { value: value.slice(0, start) + value.slice(cursor), cursor: start };
  }
  if (key.ctrl) {
    switch (input) {
      case "a":
        return { value, cursor: 0 };
      case "e":
        return { value, cursor: value.length };
      case "b":
        return { value, cursor: previousBoundary(value, cursor) };
      case "f":
        return { value, cursor: nextBoundary(value, cursor) };
      case "u":
        return { value: value.slice(cursor), cursor: 0 };
      case "k":
        return { value: value.slice(0, cursor), cursor };
      case "w": {
        const start = wordStart(value, cursor);
        return { value: value.slice(0, start) + value.slice(cursor), cursor: start };
      }
      default:
        return undefined;
    }
  }
  if (key.meta || key.escape || key.tab || key.return || key.upArrow || key.downArrow || key.pageUp || key.pageDown)
    return undefined;
  if (input === "") return undefined;
  // Pasted text may hold newlines; a prompt line cannot.
  const text = input.replace(/\r\n|\r|\n/g, " ");
  return { value: value.slice(0, cursor) + text + value.slice(cursor), cursor: cursor + text.length };
}

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** Where the character (grapheme cluster) before `cursor` starts. */
export function previousBoundary(value: string, cursor: number): number {
  if (cursor <= 0) return 0;
  // Only the text up to the cursor matters; a cluster never spans more than a few dozen units.
  const from = Math.max(0, cursor - 64);
  let start = from;
  for (const { index } of graphemes.segment(value.slice(from, cursor))) start = from + index;
  return start;
}

/** Where the character (grapheme cluster) at `cursor` ends. */
export function nextBoundary(value: string, cursor: number): number {
  if (cursor >= value.length) return value.length;
  const first = graphemes
    .segment(value.slice(cursor, cursor + 64))
    [Symbol.iterator]()
    .next();
  return first.done === true ? value.length : cursor + first.value.segment.length;
}

function wordStart(value: string, cursor: number): number {
  let i = cursor;
  while (i > 0 && /\s/.test(value[i - 1]!)) i--;
  while (i > 0 && !/\s/.test(value[i - 1]!)) i--;
  return i;
}

function wordEnd(value: string, cursor: number): number {
  let i = cursor;
  while (i < value.length && /\s/.test(value[i]!)) i++;
  while (i < value.length && !/\s/.test(value[i]!)) i++;
  return i;
}
