import { describe, expect, it } from "vitest";
import { quoteWord, tokenize } from "../../../repl/input/tokenize.js";

describe("tokenize", () => {
  it("splits on whitespace and keeps spans", () => {
    const t = tokenize("/load  data.csv as x");
    expect(t.words.map((w) => w.text)).toEqual(["/load", "data.csv", "as", "x"]);
    expect(t.words[1]).toMatchObject({ start: 7, end: 15 });
    expect(t.trailingSpace).toBe(false);
  });

  it("groups quoted text and unescapes", () => {
    const t = tokenize(`/load "my file.csv" 'a b' c\\ d "q\\"x"`);
    expect(t.words.map((w) => w.text)).toEqual(["/load", "my file.csv", "a b", "c d", 'q"x']);
    expect(t.unterminated).toBe(false);
  });

  it("reports an open quote and a trailing space", () => {
    expect(tokenize('/load "abc').unterminated).toBe(true);
    expect(tokenize("/show ").trailingSpace).toBe(true);
    expect(tokenize("").words).toEqual([]);
  });

  it("quoteWord round-trips through tokenize", () => {
    for (const text of ["plain", "with space", 'a"quote', "back\\slash", ""]) {
      expect(tokenize(quoteWord(text)).words[0]?.text ?? "").toBe(text);
    }
    expect(quoteWord("plain")).toBe("plain");
  });
});
