/**
 * The layers of docs/ARCHITECTURE.md, held against the import graph (type imports
 * included): each file belongs to the layer of its longest matching folder, and may import
 * only its own layer and the layers listed for it. A broken rule fails here, naming the
 * files and the rule.
 */
import { describe, expect, it } from "vitest";
import { projectGraph } from "./import-graph.js";

type Layer =
  "core" | "client" | "session" | "display" | "server" | "portal" | "store-adapter" | "local" | "entry" | "apps";

/** Folder (or file) -> layer; the longest match wins. */
const LAYERS: ReadonlyArray<readonly [string, Layer]> = [
  ["src/core/", "core"],
  ["src/client/", "client"],
  ["src/session/", "session"],
  ["src/display/", "display"],
  ["src/server/", "server"],
  ["src/server/portal/", "portal"],
  ["src/local/", "local"],
  ["src/index.ts", "entry"],
  ["src/danfo/", "entry"],
  ["src/internal/", "entry"],
  ["src/cli/", "apps"],
  ["repl/", "apps"],
];

/** What each layer may import besides itself; every other arrow is a broken rule. */
const MAY_IMPORT: Readonly<Record<Layer, readonly Layer[]>> = {
  core: [],
  client: ["core"],
  session: ["client", "core"],
  display: ["session", "client", "core"],
  // The server knows no client and no session; only its portal draws with display/.
  server: ["store-adapter", "portal", "core"],
  portal: ["server", "store-adapter", "display", "core"],
  // Adapters are peers behind one port: each sees the server's domain, never another adapter.
  "store-adapter": ["server", "core"],
  local: ["session", "server", "store-adapter", "client", "core"],
  entry: ["session", "display", "local", "client", "core"],
  apps: ["entry", "session", "display", "local", "server", "store-adapter", "client", "core"],
};

/** Every folder of src/server/store/ is a store adapter (found as the service finds them), its own peer. */
const ADAPTER_FOLDER = /^src\/server\/store\/([^/]+)\//;

function layerOf(file: string): Layer | undefined {
  if (ADAPTER_FOLDER.test(file)) return "store-adapter";
  let best: readonly [string, Layer] | undefined;
  for (const entry of LAYERS) {
    const [prefix] = entry;
    const matches = prefix.endsWith("/") ? file.startsWith(prefix) : file === prefix;
    if (matches && (!best || prefix.length > best[0].length)) best = entry;
  }
  return best?.[1];
}

/** Every arrow that breaks a rule, as "from -> to (layer -> layer)". */
function brokenArrows(edges: ReadonlyMap<string, readonly string[]>): string[] {
  const broken: string[] = [];
  for (const [from, targets] of edges) {
    const a = layerOf(from);
    for (const to of targets) {
      const b = layerOf(to);
      if (a === undefined || b === undefined || MAY_IMPORT[a].includes(b)) continue;
      if (a === "store-adapter" && b === a) {
        const [fromAdapter, toAdapter] = [from, to].map((f) => ADAPTER_FOLDER.exec(f)![1]);
        if (fromAdapter !== toAdapter) broken.push(`${from} -> ${to} (store ${fromAdapter} -> store ${toAdapter})`);
        continue;
      }
      if (a !== b) broken.push(`${from} -> ${to} (${a} -> ${b})`);
    }
  }
  return broken.sort();
}

describe("the layers", () => {
  const edges = projectGraph();

  it("place every source file", () => {
    expect([...edges.keys()].filter((f) => layerOf(f) === undefined)).toEqual([]);
  });

  it("are kept: each layer imports only the layers below it", () => {
    expect(brokenArrows(edges)).toEqual([]);
  });

  it("find a broken rule they are shown", () => {
    const shown = new Map([
      ["src/core/engine/x.ts", ["src/client/y.ts"]],
      ["src/session/a.ts", ["src/display/b.ts", "src/client/c.ts"]],
      ["src/server/store/postgres/p.ts", ["src/server/store/sqlite/q.ts", "src/server/domain/r.ts"]],
      ["src/server/routes/s.ts", ["src/session/t.ts"]],
      ["src/server/portal/u.ts", ["src/display/v.ts"]],
    ]);
    expect(brokenArrows(shown)).toEqual([
      "src/core/engine/x.ts -> src/client/y.ts (core -> client)",
      "src/server/routes/s.ts -> src/session/t.ts (server -> session)",
      "src/server/store/postgres/p.ts -> src/server/store/sqlite/q.ts (store postgres -> store sqlite)",
      "src/session/a.ts -> src/display/b.ts (session -> display)",
    ]);
  });
});
