/** File-path candidates for Tab: entries of the typed directory, folders ending in `/`. */
import { readdirSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";

export function completePath(partial: string, cwd: string, extensions?: readonly string[]): string[] {
  const slash = partial.lastIndexOf("/");
  const dirPart = slash < 0 ? "" : partial.slice(0, slash + 1);
  const base = slash < 0 ? partial : partial.slice(slash + 1);
  const expanded = dirPart.startsWith("~/") ? join(homedir(), dirPart.slice(2)) : dirPart;
  const dir = expanded === "" ? cwd : isAbsolute(expanded) ? expanded : join(cwd, expanded);
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const entry of entries) {
    if (!entry.name.startsWith(base)) continue;
    if (entry.name.startsWith(".") && !base.startsWith(".")) continue;
    const isDir = entry.isDirectory() || (entry.isSymbolicLink() && isDirectory(join(dir, entry.name)));
    if (!isDir && extensions && !extensions.some((ext) => entry.name.toLowerCase().endsWith(ext))) continue;
    out.push(`${dirPart}${entry.name}${isDir ? "/" : ""}`);
  }
  return out.sort();
}

function isDirectory(path: string): boolean {
  try {
    readdirSync(path);
    return true;
  } catch {
    return false;
  }
}
