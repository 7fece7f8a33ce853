/**
 * A third store is one new folder: the files that choose, open and find a store and
 * answer its faults (src/server/store/choice.ts, open.ts, adapters.ts, adapter.ts,
 * storage-fault.ts) name no adapter, neither
 * by an import of its folder nor by its kind or folder in a string. They learn the
 * adapters at run time (adapters.ts reads the folders); test/server/store/ checks that.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { graph, ROOT } from "./import-graph.js";

const STORE = "src/server/store";
const CHOOSERS = ["choice.ts", "open.ts", "adapters.ts", "adapter.ts", "storage-fault.ts"].map((f) => `${STORE}/${f}`);

/** The adapter folders: every folder of src/server/store/. */
function adapterFolders(): string[] {
  return readdirSync(join(ROOT, STORE), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
}

/** Where `files` name one of `folders`: an import into it, or the name in a string or a path. */
function namings(files: readonly string[], folders: readonly string[]): string[] {
  const found: string[] = [];
  for (const [file, targets] of graph(files)) {
    for (const to of targets) {
      const folder = folders.find((f) => to.startsWith(`${STORE}/${f}/`));
      if (folder) found.push(`${file} imports ${to}`);
    }
    const text = readFileSync(join(ROOT, file), "utf8");
    for (const folder of folders)
      if (new RegExp(`["'\`/]${folder}\\b`, "i").test(text)) found.push(`${file} names "${folder}" in a string`);
  }
  return found.sort();
}

describe("the store choice", () => {
  it("names no adapter: adapters are found by their folders", () => {
    expect(adapterFolders()).toEqual(expect.arrayContaining(["sqlite", "postgres"]));
    expect(namings(CHOOSERS, adapterFolders())).toEqual([]);
  });

  it("finds a naming it is shown", () => {
    expect(namings([`${STORE}/sqlite/adapter.ts`], ["sqlite"])).toEqual([
      `${STORE}/sqlite/adapter.ts imports ${STORE}/sqlite/index.ts`,
      `${STORE}/sqlite/adapter.ts imports ${STORE}/sqlite/sqlite.ts`,
      `${STORE}/sqlite/adapter.ts imports ${STORE}/sqlite/storage-faults.ts`,
      `${STORE}/sqlite/adapter.ts names "sqlite" in a string`,
    ]);
  });
});
