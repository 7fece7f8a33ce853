/**
 * Boolean columns in CSV, as pandas' C parser reads them: a column whose every non-missing
 * value is `true` or `false` in any case (`True`, `FALSE`, `tRue`; nothing around them) is
 * bool. CSV has no booleans of its own, so the column remembers how the file spelt them and
 * is written back the same way; pandas' `True`/`False` otherwise.
 */
import type { BooleanSpelling, Column } from "./table.js";

/** pandas' `to_csv` spelling. */
export const PANDAS_BOOLEANS: BooleanSpelling = { true: "True", false: "False" };

/** `true`/`false` in any case, exactly (pandas 1.5.3's `to_boolean`: strcasecmp with "TRUE"/"FALSE"). */
export function isBooleanWord(text: string): boolean {
  return (text.length === 4 || text.length === 5) && /^(?:true|false)$/i.test(text);
}

/**
 * The column as booleans when every non-missing value is a boolean word and there is at
 * least one, else undefined. The file's spelling is kept when it used one word for each
 * value (`true`/`false`, `TRUE`/`FALSE`, ...), so a passed-through column keeps its bytes.
 */
export function booleanColumn(name: string, texts: readonly (string | null)[]): Column | undefined {
  let spelledTrue: string | undefined;
  let spelledFalse: string | undefined;
  let consistent = true;
  let any = false;
  for (const text of texts) {
    if (text === null) continue;
    if (!isBooleanWord(text)) return undefined;
    any = true;
    if (text.length === 4) {
      spelledTrue ??= text;
      consistent &&= spelledTrue === text;
    } else {
      spelledFalse ??= text;
      consistent &&= spelledFalse === text;
    }
  }
  if (!any) return undefined;
  const values = texts.map((t) => (t === null ? null : t.length === 4));
  const spelling = consistent
    ? { true: spelledTrue ?? PANDAS_BOOLEANS.true, false: spelledFalse ?? PANDAS_BOOLEANS.false }
    : undefined;
  return spelling === undefined || (spelling.true === "True" && spelling.false === "False")
    ? { name, kind: "boolean", values }
    : { name, kind: "boolean", values, csvSpelling: spelling };
}
