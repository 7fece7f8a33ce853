/**
 * The import graph of src/ and repl/ (type imports included) has no cycle. A handle and
 * the context that makes more of it are kept apart by the one session context
 * (src/session/session-context.ts), which names only core and client types. A new cycle
 * fails here, naming its files.
 */
import { describe, expect, it } from "vitest";
import { projectGraph } from "./import-graph.js";

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
  it("has no cycle", () => {
    expect(cycles(projectGraph())).toEqual([]);
  });

  it("keeps the session context below the handles: it imports only core and client", () => {
    const imports = projectGraph().get("src/session/session-context.ts");
    expect(imports).toBeDefined();
    expect(imports!.filter((to) => !/^src\/(core|client)\//.test(to))).toEqual([]);
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
