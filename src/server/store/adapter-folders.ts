/**
 * The adapter modules, found by their folders: every folder next to this file that holds
 * an `adapter` module (adapter.js when built, adapter.ts under tsx or vitest). A bundle has
 * no folders to read: scripts/bundle.mjs puts in its place a module that imports the
 * folders it found when it was built, so the bundled service knows the same adapters.
 */
import { readdirSync, statSync } from "node:fs";
import { dirname, extname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { StoreAdapter } from "./adapter.js";

const self = fileURLToPath(import.meta.url);
const DIR = dirname(self);
const MODULE = `adapter${extname(self)}`;

/** Where the adapters were found, for messages. */
export const ADAPTERS_PLACE = DIR;

/** An adapter module as loaded: its file (for messages) and its exports. */
export interface FoundAdapter {
  file: string;
  exports: { storeAdapter?: StoreAdapter };
}

function hasAdapter(folder: string): boolean {
  try {
    return statSync(join(DIR, folder, MODULE)).isFile();
  } catch {
    return false;
  }
}

/** Every adapter module next to this file, in the order of their folders' names. */
export async function loadAdapterModules(): Promise<FoundAdapter[]> {
  const folders = readdirSync(DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && hasAdapter(entry.name))
    .map((entry) => entry.name)
    .sort();
  const found: FoundAdapter[] = [];
  for (const folder of folders) {
    const file = join(DIR, folder, MODULE);
    found.push({ file, exports: (await import(pathToFileURL(file).href)) as FoundAdapter["exports"] });
  }
  return found;
}
