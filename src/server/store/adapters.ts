/**
 * The store adapters, found by their folders: every folder next to this file that holds
 * an `adapter` module (adapter.js when built, adapter.ts under tsx or vitest) is one, and
 * its `storeAdapter` export describes it. So a new store is one new folder, and the
 * service, the admin commands and the conformance tests find it without a list to edit.
 *
 * The descriptors are small and load here, at start; each adapter's driver loads only
 * in its `open`. This needs the adapter folders as files beside this one, as `tsc`, the
 * packed tarball and Deno keep them; a bundler that merges modules into one file must
 * keep `store/<name>/adapter.js` (and what it imports) as files beside it.
 */
import { readdirSync, statSync } from "node:fs";
import { dirname, extname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { StoreAdapter, StoreChoice } from "./adapter.js";

const self = fileURLToPath(import.meta.url);
/** The folder the adapters are in, for messages and tests. */
export const ADAPTERS_DIR = dirname(self);
const MODULE = `adapter${extname(self)}`;

function hasAdapter(folder: string): boolean {
  try {
    return statSync(join(ADAPTERS_DIR, folder, MODULE)).isFile();
  } catch {
    return false;
  }
}

async function discoverAdapters(): Promise<readonly StoreAdapter[]> {
  const folders = readdirSync(ADAPTERS_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && hasAdapter(entry.name))
    .map((entry) => entry.name)
    .sort();
  const adapters: StoreAdapter[] = [];
  for (const folder of folders) {
    const file = join(ADAPTERS_DIR, folder, MODULE);
    const loaded = (await import(pathToFileURL(file).href)) as { storeAdapter?: StoreAdapter };
    if (!loaded.storeAdapter)
      throw new Error(`${file} must export its descriptor as \`storeAdapter\` (see store/adapter.ts)`);
    adapters.push(loaded.storeAdapter);
  }
  const kinds = adapters.map((a) => a.kind.toLowerCase());
  const twice = kinds.find((kind, i) => kinds.indexOf(kind) !== i);
  if (twice) throw new Error(`two store adapters in ${ADAPTERS_DIR} call themselves "${twice}"`);
  const defaults = adapters.filter((a) => a.dataDirDefault);
  if (defaults.length !== 1)
    throw new Error(
      `exactly one store adapter in ${ADAPTERS_DIR} must be the data dir's default (dataDirDefault), found ${defaults.length}` +
        (adapters.length === 0 ? `: no store/<name>/${MODULE} was found; a bundle must keep them as files` : ""),
    );
  return adapters;
}

/** Every store adapter, in the order of their kinds. */
export const STORE_ADAPTERS: readonly StoreAdapter[] = await discoverAdapters();

/** The adapter that made `choice`. */
export function adapterOf(choice: StoreChoice): StoreAdapter {
  const adapter = STORE_ADAPTERS.find((a) => a.kind === choice.kind);
  if (!adapter) throw new Error(`no store adapter of kind "${choice.kind}" in ${ADAPTERS_DIR}`);
  return adapter;
}
