/**
 * The import graph of src/ and repl/ (type imports included) has no cycle but one: the
 * session's handles (Blob, Job and the context that makes them) name each other's types,
 * as a class does whose context can make more of it. A new cycle fails here, naming its files.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const IMPORT = /(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g;

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.name.endsWith(".d.ts"))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));
}

function graph(files: readonly string[]): Map<string, string[]> {
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

/** Tarjan's strongly connected components of more than one file, each sorted. */
function cycles(edges: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      onStack.delete(w);
      component.push(w);
      if (w === v) break;
    }
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe("the import graph", () => {
  it("has no cycle but the session handles' types", () => {
    const found = cycles(graph([...sources("src"), ...sources("repl")]));
    expect(found).toEqual([
      [
        "src/session/blob.ts",
        "src/session/columnar-output.ts",
        "src/session/job-record.ts",
        "src/session/job-rerun.ts",
        "src/session/job-wait.ts",
        "src/session/job.ts",
        "src/session/preprocess/options.ts",
      ],
    ]);
  });

  it("finds a cycle it is shown", () => {
    const edges = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", ["a.ts"]],
    ]);
    expect(cycles(edges)).toEqual([["a.ts", "b.ts", "c.ts"]]);
  });
});
