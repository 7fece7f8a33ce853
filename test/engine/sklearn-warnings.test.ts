/**
 * The engine's warnings against scikit-learn 1.2.1's own, on the inputs in
 * test/fixtures/sklearn-warnings/warnings.json (made by generate.py beside it).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { PreprocessingType } from "../../src/core/contract/transform-types.js";
import { fitTransform, OWN_WARNING_CODES, WARNING_CODES } from "../../src/core/engine/index.js";

interface Case {
  transform: PreprocessingType;
  params: Record<string, unknown>;
  data: Record<string, Array<number | null>>;
  column: string | null;
  warnings: Array<{ category: string; message: string }>;
}

const fixture = JSON.parse(
  readFileSync(new URL("../fixtures/sklearn-warnings/warnings.json", import.meta.url), "utf8"),
) as { sklearn: string; cases: Case[] };

/** The code each of scikit-learn's texts belongs to (docs/warnings.md). */
function codeOf(text: string, c: Case): string {
  if (text.startsWith("n_quantiles (")) return "n_quantiles_capped";
  if (text.startsWith("'ignore_implicit_zeros'")) return "ignore_implicit_zeros";
  if (text.startsWith("overflow encountered") || text.startsWith("invalid value encountered in subtract")) {
    return "overflow";
  }
  if (text.startsWith("invalid value encountered in multiply")) return "overflow";
  if (Object.values(c.data).some((col) => col.every((v) => v === null))) return "all_missing_column";
  throw new Error(`no code for scikit-learn's "${text}"`);
}

function label(c: Case): string {
  const data = Object.entries(c.data)
    .map(([k, v]) => `${k}=[${v.map((x) => (x === null ? "nan" : x)).join(",")}]`.slice(0, 40))
    .join(" ");
  return `${c.transform} ${JSON.stringify(c.params)} ${data} -> ${c.warnings.length ? c.warnings.map((w) => w.message).join(" | ") : "no warning"}`;
}

describe(`scikit-learn ${fixture.sklearn}'s warnings`, () => {
  it.each(fixture.cases.map((c) => [label(c), c] as const))("%s", (_, c) => {
    const names = Object.keys(c.data);
    const columns = names.map((n) => Float64Array.from(c.data[n], (v) => (v === null ? NaN : v)));
    // mdps's own notices (a near-constant column) are not scikit-learn's: near-constant.test.ts
    const warnings = fitTransform(c.transform, c.params as never, { names, columns }).warnings.filter(
      (w) => !OWN_WARNING_CODES.includes(w.code),
    );

    const expectedCodes = [...new Set(c.warnings.map((w) => codeOf(w.message, c)))].sort();
    expect([...new Set(warnings.map((w) => w.code))].sort()).toEqual(expectedCodes);
    for (const w of warnings) {
      expect(WARNING_CODES).toContain(w.code);
      // A parameter's warning is about the whole job; a data warning names its column.
      expect(w.column).toBe(w.code === "n_quantiles_capped" || w.code === "ignore_implicit_zeros" ? null : c.column);
    }
    // Every text scikit-learn printed is quoted exactly in mdps's message of the same code.
    for (const sk of c.warnings) {
      const code = codeOf(sk.message, c);
      expect(
        warnings
          .filter((w) => w.code === code)
          .map((w) => w.message)
          .join("\n"),
      ).toContain(JSON.stringify(sk.message));
    }
  });

  it("covers every warning code", () => {
    const codes = new Set(fixture.cases.flatMap((c) => c.warnings.map((w) => codeOf(w.message, c))));
    expect([...codes].sort()).toEqual(WARNING_CODES.filter((code) => !OWN_WARNING_CODES.includes(code)).sort());
  });
});
