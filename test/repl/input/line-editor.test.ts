import { describe, expect, it } from "vitest";
import { editLine, lineAt, type LineState } from "../../../repl/input/line-editor.js";

const none = {
  leftArrow: false,
  rightArrow: false,
  home: false,
  end: false,
  backspace: false,
  delete: false,
  ctrl: false,
  meta: false,
};
const type = (s: LineState, input: string, key: Partial<typeof none> = {}) => editLine(s, input, { ...none, ...key });

describe("editLine", () => {
  it("inserts at the cursor and moves", () => {
    let s = lineAt("/shw");
    s = type(s, "", { leftArrow: true })!;
    s = type(s, "o")!;
    expect(s).toEqual({ value: "/show", cursor: 4 });
  });

  it("deletes backwards and handles readline keys", () => {
    expect(type(lineAt("abc"), "", { backspace: true })).toEqual({ value: "ab", cursor: 2 });
    expect(type({ value: "abc", cursor: 0 }, "", { delete: true })).toEqual({ value: "abc", cursor: 0 });
    expect(type(lineAt("/load a.csv"), "w", { ctrl: true })).toEqual({ value: "/load ", cursor: 6 });
    expect(type({ value: "abc def", cursor: 3 }, "u", { ctrl: true })).toEqual({ value: " def", cursor: 0 });
    expect(type({ value: "abc def", cursor: 3 }, "k", { ctrl: true })).toEqual({ value: "abc", cursor: 3 });
    expect(type(lineAt("abc"), "a", { ctrl: true })).toEqual({ value: "abc", cursor: 0 });
    expect(type({ value: "abc", cursor: 0 }, "e", { ctrl: true })).toEqual({ value: "abc", cursor: 3 });
  });

  it("turns pasted newlines into spaces and leaves other keys to the caller", () => {
    expect(type(lineAt(""), "a\nb")).toEqual({ value: "a b", cursor: 3 });
    expect(type(lineAt("x"), "c", { ctrl: true })).toBeUndefined();
    expect(editLine(lineAt("x"), "", { ...none, tab: true })).toBeUndefined();
  });
});

describe("editLine in characters, not UTF-16 units", () => {
  it("Backspace after an emoji removes the whole emoji", () => {
    expect(type(lineAt("hi 🎉"), "", { backspace: true })).toEqual({ value: "hi ", cursor: 3 });
    expect(type(lineAt("x👍🏽"), "", { delete: true })).toEqual({ value: "x", cursor: 1 });
    expect(type(lineAt("🇫🇷"), "", { backspace: true })).toEqual({ value: "", cursor: 0 });
    expect(type(lineAt("cafe\u0301"), "", { backspace: true })).toEqual({ value: "caf", cursor: 3 });
  });

  it("arrows and Ctrl+B/F move over a whole emoji", () => {
    const line = lineAt("a🎉b");
    const left = type(line, "", { leftArrow: true })!;
    expect(left.cursor).toBe(3);
    const left2 = type(left, "", { leftArrow: true })!;
    expect(left2.cursor).toBe(1);
    expect(type(left2, "f", { ctrl: true })!.cursor).toBe(3);
    expect(type(left2, "", { rightArrow: true })!.cursor).toBe(3);
    expect(type(left, "b", { ctrl: true })!.cursor).toBe(1);
    expect(type({ value: "a🎉b", cursor: 1 }, "x")).toEqual({ value: "ax🎉b", cursor: 2 });
  });
});
