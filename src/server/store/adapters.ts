/**
 * The store adapters, found by their folders: every folder next to this file that holds
 * an `adapter` module (adapter.js when built, adapter.ts under tsx or vitest) is one, and
 * its `storeAdapter` export describes it. So a new store is one new folder, and the
 * service, the admin commands and the conformance tests find it without a list to edit.
 *
 * The descriptors are small and load here, at start; each adapter's driver loads only
 * in its `open`. How the folders are found, also in a bundle: ./adapter-folders.ts.
 */
import type { StoreAdapter, StoreChoice } from "./adapter.js";
import { ADAPTERS_PLACE, loadAdapterModules } from "./adapter-folders.js";

async function discoverAdapters(): Promise<readonly StoreAdapter[]> {
  const adapters: StoreAdapter[] = [];
  for (const { file, exports } of await loadAdapterModules()) {
    if (!exports.storeAdapter)
      throw new Error(`${file} must export its descriptor as \`storeAdapter\` (see store/adapter.ts)`);
    adapters.push(exports.storeAdapter);
  }
  const kinds = adapters.map((a) => a.kind.toLowerCase());
  const twice = kinds.find((kind, i) => kinds.indexOf(kind) !== i);
  if (twice) throw new Error(`two store adapters in ${ADAPTERS_PLACE} call themselves "${twice}"`);
  const defaults = adapters.filter((a) => a.dataDirDefault);
  if (defaults.length !== 1)
    throw new Error(
      `exactly one store adapter in ${ADAPTERS_PLACE} must be the data dir's default (dataDirDefault), found ${defaults.length}` +
        (adapters.length === 0 ? ": no store/<name>/adapter module was found" : ""),
    );
  return adapters;
}

/** Every store adapter, in the order of their kinds. */
export const STORE_ADAPTERS: readonly StoreAdapter[] = await discoverAdapters();

/** The adapter that made `choice`. */
export function adapterOf(choice: StoreChoice): StoreAdapter {
  const adapter = STORE_ADAPTERS.find((a) => a.kind === choice.kind);
  if (!adapter) throw new Error(`no store adapter of kind "${choice.kind}" in ${ADAPTERS_PLACE}`);
  return adapter;
}
