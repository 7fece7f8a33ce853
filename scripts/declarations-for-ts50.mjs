// Post-build step of `npm run build`: TypeScript 5.9 writes
//   /// <reference types="node" resolution-mode="require"/>
// into declaration files that mention Node's types, and TypeScript 5.0 (tslab's compiler)
// rejects `resolution-mode` outside node16/nodenext resolution. The plain directive means
// the same to both, so the package's .d.ts files type-check in tslab too
// (test/notebook/declarations.test.ts checks it with tslab's own TypeScript).
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const SYNTHESIZED = /^\/\/\/ <reference types="node" resolution-mode="require"\/>\n/gm;

function* declarationFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* declarationFiles(path);
    else if (entry.name.endsWith(".d.ts")) yield path;
  }
}

let changed = 0;
for (const file of declarationFiles(process.argv[2] ?? "dist")) {
  const text = readFileSync(file, "utf8");
  if (!text.includes('resolution-mode="require"')) continue;
  writeFileSync(file, `/// <reference types="node" />\n${text.replace(SYNTHESIZED, "")}`);
  changed++;
}
if (process.env.MDPS_BUILD_VERBOSE) console.log(`declarations-for-ts50: ${changed} files`);
