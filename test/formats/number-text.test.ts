import { describe, expect, it } from "vitest";
import { formatNumber, parseNumberText } from "../../src/core/formats/number-text.js";
import { seededRandom } from "../../src/core/sample-data/seeded-random.js";
import { hardDoubles } from "./byte-sources.js";

/** Texts where parseNumberText and Number() disagree (both must give the same double). */
function disagreements(texts: readonly string[]): string[] {
  return texts.filter((t) => !Object.is(parseNumberText(t), Number(t)));
}

/** The exact decimal value of the midpoint between x > 0 and the next double up. */
function midpointDigits(x: number): { digits: string; pointFromRight: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fractionBits = bits & ((1n << 52n) - 1n);
  const m = biased === 0 ? fractionBits : fractionBits | (1n << 52n);
  const e = (biased === 0 ? 1 : biased) - 1075; // x = m * 2^e
  const twice = 2n * m + 1n; // midpoint = twice * 2^(e-1)
  const shift = e - 1;
  if (shift >= 0) return { digits: (twice << BigInt(shift)).toString(), pointFromRight: 0 };
  return { digits: (twice * 5n ** BigInt(-shift)).toString(), pointFromRight: -shift };
}

/** The first n significant digits of a decimal (digits, point) as text, optionally bumped up by one unit. */
function truncated(digits: string, pointFromRight: number, n: number, bump: boolean): string {
  let head = BigInt(digits.slice(0, n)) + (bump ? 1n : 0n);
  const dropped = digits.length - n;
  const exponent = dropped - pointFromRight; // value = head * 10^exponent
  if (head === 0n) head = 1n;
  return `${head}e${exponent}`;
}

describe("parseNumberText", () => {
  it("agrees with Number() on shortest texts of hard doubles", () => {
    const values = hardDoubles(200_000, 3);
    const texts = Array.from(values, (x) => formatNumber(x));
    expect(disagreements(texts)).toEqual([]);
  });

  it("agrees with Number() on 16 to 19 digit texts right next to a rounding boundary", () => {
    const rand = seededRandom(11);
    const texts: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      const x = (rand() + 0.001) * 10 ** Math.floor(rand() * 12 - 6);
      const { digits, pointFromRight } = midpointDigits(x);
      for (const n of [16, 17, 18, 19]) {
        if (digits.length < n) continue;
        for (const bump of [false, true]) {
          const t = truncated(digits, pointFromRight, n, bump);
          texts.push(t);
          // Also in plain decimal form, which is what the division shortcut sees most.
          const plain = Number(t).toFixed(20).replace(/0+$/, "");
          if (!plain.includes("e")) texts.push(plain);
        }
      }
    }
    // Exact midpoints (the guard must hand these to Number(), which rounds half to even).
    texts.push("9007199254740993.0", "9007199254740995.00", "18014398509481986.0", "9007199254740993.000");
    expect(texts.length).toBeGreaterThan(100_000);
    expect(disagreements(texts)).toEqual([]);
  });

  it("agrees with Number() on random digit strings of every length and scale", () => {
    const rand = seededRandom(5);
    const texts: string[] = [];
    for (let i = 0; i < 100_000; i++) {
      const length = 1 + Math.floor(rand() * 22);
      let digits = "";
      for (let k = 0; k < length; k++) digits += String(Math.floor(rand() * 10));
      const point = Math.floor(rand() * (length + 1));
      let t = `${digits.slice(0, point)}.${digits.slice(point)}`;
      if (t === ".") t = "0";
      if (rand() < 0.4) t += `e${Math.floor(rand() * 80 - 40)}`;
      if (rand() < 0.5) t = (rand() < 0.5 ? "-" : "+") + t;
      texts.push(t);
    }
    expect(disagreements(texts)).toEqual([]);
  });

  it("accepts Python's and JavaScript's spellings of special values, nothing else", () => {
    expect(parseNumberText("-0")).toBe(-0);
    expect(parseNumberText("inf")).toBe(Infinity);
    expect(parseNumberText("-Infinity")).toBe(-Infinity);
    expect(parseNumberText("NaN")).toBeNaN();
    expect(parseNumberText("1e999")).toBe(Infinity);
    for (const bad of [
      "",
      " ",
      " 1",
      "1 ",
      "0x10",
      "0b1",
      "0o7",
      "1e",
      "e5",
      "-",
      ".",
      "1.2.3",
      "1_000",
      "__proto__",
      "toString",
      "Infinityx",
    ]) {
      expect([bad, parseNumberText(bad)]).toEqual([bad, undefined]);
    }
  });

  it("formats -0 with its sign and everything else as String() does", () => {
    expect(formatNumber(-0)).toBe("-0");
    expect(formatNumber(0)).toBe("0");
    expect(formatNumber(5e-324)).toBe("5e-324");
    expect(formatNumber(0.1 + 0.2)).toBe("0.30000000000000004");
  });
});
