/**
 * The lessons shipped with mdps (repl/lessons/*.txt), found next to the running code, so
 * `mdps repl --lesson scaling` runs one from an installed package as from the repository.
 * A lesson reads its data from `notebooks/data/`, as written for the repository root; run
 * as a lesson, those paths are the package's own copy, and everything else (files it
 * saves) stays in the folder it is run from.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { didYouMean } from "../src/internal/index.js";

const DATA_PATH = /(^|\s)(notebooks\/data\/\S+)/g;

/** The package root: the folder holding repl/lessons (dist/repl/ → ../..; repl/ under tsx → ..). */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let up = 0; up < 3; up++) {
    if (existsSync(join(dir, "repl/lessons"))) return dir;
    dir = dirname(dir);
  }
  throw new Error("mdps's lessons (repl/lessons) are missing from this installation; reinstall mdps");
}

export function lessonNames(): string[] {
  return readdirSync(join(packageRoot(), "repl/lessons"))
    .filter((f) => f.endsWith(".txt"))
    .map((f) => basename(f, ".txt"))
    .sort();
}

/** The lesson's lines, its data paths made the package's; a clear error naming the lessons there are. */
export function lessonScript(name: string): string {
  const names = lessonNames();
  if (!names.includes(name)) {
    throw new Error(`no lesson "${name}"${didYouMean(name, names)}; the lessons are ${names.join(", ")}`);
  }
  const root = packageRoot();
  const text = readFileSync(join(root, "repl/lessons", `${name}.txt`), "utf8");
  return text.replace(DATA_PATH, (_whole, space: string, path: string) => `${space}${quoted(join(root, path))}`);
}

/** A path as one word of a command line (tokenize.ts: double quotes group, backslash escapes). */
function quoted(path: string): string {
  return /[\s"'\\]/.test(path) ? `"${path.replace(/["\\]/g, "\\$&")}"` : path;
}
