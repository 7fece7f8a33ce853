/**
 * better-sqlite3 for the user project without compiling it again: its install script
 * (`prebuild-install || node-gyp rebuild`) takes a prebuilt binary from a local folder when
 * one is named in a `.prebuild-installrc` above the project, so the binary this repository's
 * `npm ci` compiled serves the user project too. Compiling SQLite takes 100 s on an idle
 * two-core machine and far longer on a busy one, and the repository's own install already
 * shows it compiles; the user project's install is otherwise what README says.
 *
 * Only when it fits: the same better-sqlite3 version the project will get is checked after the
 * install (a newer one from the registry is compiled as usual), and the binary must load in
 * this Node (same ABI). Returns a note saying what was done.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { REPO } from "../notebooks/jupyter.js";

export function seedSqlitePrebuild(work: string): string {
  const dir = join(REPO, "node_modules/better-sqlite3");
  const binary = join(dir, "build/Release/better_sqlite3.node");
  if (!existsSync(binary)) return "better-sqlite3 compiles in the project (the repository has no compiled binary)";
  try {
    const Database = createRequire(join(REPO, "package.json"))("better-sqlite3") as new (path: string) => {
      close(): void;
    };
    new Database(":memory:").close();
  } catch (error) {
    return `better-sqlite3 compiles in the project (the repository's binary does not load here: ${String(error)})`;
  }
  const { version } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string };
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  const stage = join(work, "prebuild-stage");
  mkdirSync(join(stage, "build/Release"), { recursive: true });
  writeFileSync(join(stage, "build/Release/better_sqlite3.node"), readFileSync(binary));
  const prebuilds = join(work, "prebuilds");
  mkdirSync(prebuilds, { recursive: true });
  execFileSync("tar", ["czf", join(prebuilds, name), "-C", stage, "build"]);
  // rc (prebuild-install's settings) reads .prebuild-installrc from the working directory upwards.
  writeFileSync(join(work, ".prebuild-installrc"), `local-prebuilds=${prebuilds}\n`);
  return `better-sqlite3 ${version} from the repository's compiled binary (${name})`;
}
