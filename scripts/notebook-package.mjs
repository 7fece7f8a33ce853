#!/usr/bin/env node
/**
 * Places mdps in notebooks/node_modules as `npm install` places a package in a user's
 * project, so the repository's notebooks `import { Session } from "mdps"` as a user's do
 * (tslab's TypeScript resolves packages from the notebook's folder upwards, the Node 10
 * way, which does not know a package's own name; Node and Deno then follow its `exports`):
 *
 *   notebooks/node_modules/mdps/package.json   the repository's, as the package ships it
 *   notebooks/node_modules/mdps/dist           a link to the build (../../../dist)
 *   notebooks/node_modules/.bin/mdps           a link to its `bin`, for `npx mdps` there
 *
 * Only `dist` is linked, never the repository itself, so no link leads back up into the
 * folder that holds it (tools that follow links would walk such a loop forever). `npm run
 * build` runs this; it is idempotent and replaces an older whole-repository link.
 *
 *   node scripts/notebook-package.mjs
 */
import {
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const modules = join(root, "notebooks", "node_modules");
const pkgDir = join(modules, "mdps");

/** The fields of package.json an installed package is read by. */
const SHIPPED = ["name", "version", "description", "type", "license", "engines", "main", "types"];
const MORE = ["typesVersions", "exports", "bin"];

function isLink(path) {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function exists(path) {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * `target` at `path` as a relative link, replacing whatever else stands there. A link
 * already right is left alone: a notebook kernel may be resolving "mdps" through it.
 */
function link(path, target) {
  if (isLink(path) && readlinkSync(path) === target) return;
  if (exists(path)) rmSync(path, { recursive: !isLink(path), force: true });
  symlinkSync(target, path);
}

/** `text` at `path`, unless it is there already: never an empty file for a reader to find meanwhile. */
function writeIfChanged(path, text) {
  if (exists(path) && readFileSync(path, "utf8") === text) return;
  writeFileSync(`${path}.next`, text);
  renameSync(`${path}.next`, path);
}

const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const shipped = Object.fromEntries([...SHIPPED, ...MORE].filter((k) => k in manifest).map((k) => [k, manifest[k]]));

if (isLink(pkgDir)) rmSync(pkgDir); // the older layout: a link to the whole repository
mkdirSync(pkgDir, { recursive: true });
writeIfChanged(join(pkgDir, "package.json"), `${JSON.stringify(shipped, null, 2)}\n`);
link(join(pkgDir, "dist"), join("..", "..", "..", "dist"));

mkdirSync(join(modules, ".bin"), { recursive: true });
for (const [name, path] of Object.entries(manifest.bin ?? {})) {
  link(join(modules, ".bin", name), join("..", "mdps", path));
}
