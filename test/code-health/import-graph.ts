/**
 * The project's import graph as the code-health tests read it: every relative import of a
 * .ts/.tsx file under the given folders (static, `export ... from`, `import type` and
 * `import()` alike), as repository paths.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";

export const ROOT = join(import.meta.dirname, "../..");
const IMPORT = /(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g;

export function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.name.endsWith(".d.ts"))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));
}

export function graph(files: readonly string[]): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const targets: string[] = [];
    for (const [, spec] of readFileSync(join(ROOT, file), "utf8").matchAll(IMPORT)) {
      const base = normalize(join(dirname(file), spec!)).replace(/\.js$/, "");
      const found = [".ts", ".tsx"].map((ext) => base + ext).find((p) => existsSync(join(ROOT, p)));
      if (found) targets.push(found);
    }
    edges.set(file, targets);
  }
  return edges;
}

/** The graph of everything the package and its apps are made of. */
export function projectGraph(): Map<string, string[]> {
  return graph([...sources("src"), ...sources("repl")]);
}
