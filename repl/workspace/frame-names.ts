/** Frame names double as JavaScript variables, so they must be identifiers. */
import { basename, extname } from "node:path";
import { ReplError } from "../errors.js";

export const RESERVED_NAMES = new Set([
  "session",
  "dfd",
  "frames",
  "console",
  "globalThis",
  "undefined",
  "NaN",
  "Infinity",
]);
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

export function checkFrameName(name: string): string {
  if (!IDENTIFIER.test(name)) {
    throw new ReplError(
      `"${name}" cannot name a frame.`,
      "Use letters, digits and _ (not starting with a digit), so it also works in JavaScript.",
    );
  }
  if (RESERVED_NAMES.has(name)) throw new ReplError(`"${name}" is taken by the REPL.`, "Pick another name.");
  return name;
}

/** `data/Sales 2024.csv` -> `Sales_2024`. */
export function frameNameFromPath(path: string): string {
  const stem = basename(path, extname(path))
    .replace(/[^\w$]+/g, "_")
    .replace(/^_+|_+$/g, "");
  const name = stem === "" ? "frame" : /^\d/.test(stem) ? `_${stem}` : stem;
  return RESERVED_NAMES.has(name) ? `${name}_data` : name;
}

/** `base`, or `base_2`, `base_3`... when taken. */
export function uniqueName(base: string, taken: (name: string) => boolean): string {
  if (!taken(base)) return base;
  for (let i = 2; ; i++) if (!taken(`${base}_${i}`)) return `${base}_${i}`;
}
