// `npm run package`: the tarball a user installs (`npm install mdps`), made in a staging folder.
//
// danfojs-node 1.2.0 declares two dependencies that a machine reaching only the npm registry
// cannot install: `xlsx` as a URL on cdn.sheetjs.com, and `@tensorflow/tfjs-node`, whose
// install step downloads a native TensorFlow build. `overrides` fix that for this repository
// but not for a project that depends on mdps. So mdps ships danfojs-node's own files (0.9 MB,
// MIT) as a bundled dependency whose package.json names its dependencies as peers, and mdps
// itself depends on them from the registry: `xlsx@0.18.5`, and the pure-JavaScript
// `@tensorflow/tfjs@3.21.0` under the name danfo requires (`@tensorflow/tfjs-node`). npm never
// resolves a bundled package's own dependency specs, so nothing outside the registry is fetched.
//
// A plain `npm pack` in the repository would bundle the whole danfo subtree found in
// node_modules (63 MB): npm bundles a bundled package's dependencies too. Here the staged
// node_modules holds danfojs-node alone, so only its own files go in.
//
// Usage: npm run package [-- destination folder]   (builds, then prints the tarball's path last)
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { patchDanfo } from "./patch-danfo.mjs";
import { fileURLToPath } from "node:url";

if (process.argv[2] === "--refuse-plain-pack") {
  // package.json's prepack: a plain `npm pack` or `npm publish` in the repository.
  console.error(
    "mdps: a plain `npm pack` here would bundle danfo's whole dependency tree (63 MB). Run `npm run package`, " +
      "then publish the tarball it prints: `npm publish ./mdps-<version>.tgz`.",
  );
  process.exit(1);
}

const repo = resolve(fileURLToPath(new URL("..", import.meta.url)));
const destination = resolve(process.argv[2] ?? repo);
const readJson = (path) => JSON.parse(readFileSync(path, "utf8"));

const manifest = readJson(join(repo, "package.json"));
const bundled = manifest.bundleDependencies ?? [];
if (bundled.length !== 1 || bundled[0] !== "danfojs-node") {
  throw new Error(`pack.mjs expects bundleDependencies ["danfojs-node"], found ${JSON.stringify(bundled)}`);
}
if (!existsSync(join(repo, "dist/src/index.js"))) throw new Error("dist/ is missing: run `npm run build` first");

// The package ships danfo with its heavy requires made lazy, as the repository runs it.
patchDanfo(join(repo, "node_modules"));
const danfoDir = join(repo, "node_modules/danfojs-node");
const danfo = readJson(join(danfoDir, "package.json"));
if (danfo.version !== manifest.dependencies["danfojs-node"]) {
  throw new Error(
    `node_modules has danfojs-node ${danfo.version}, package.json wants ${manifest.dependencies["danfojs-node"]}`,
  );
}
// Every dependency of danfo must be one of mdps's own, so the user's install brings it.
const peers = {};
for (const name of Object.keys(danfo.dependencies ?? {})) {
  const spec = manifest.dependencies[name];
  if (spec === undefined)
    throw new Error(`danfojs-node needs ${name}: add it to mdps's dependencies (from the registry)`);
  peers[name] = spec;
}

const stage = mkdtempSync(join(tmpdir(), "mdps-pack-"));
try {
  for (const entry of ["package.json", ...manifest.files]) {
    if (existsSync(join(repo, entry))) cpSync(join(repo, entry), join(stage, entry), { recursive: true });
  }
  // The repository's build hooks (prepare builds from src/, prepack refuses a plain pack) need
  // files the package does not ship; npm would run or list prepare for a tarball install.
  const published = readJson(join(stage, "package.json"));
  for (const hook of ["prepare", "prepack", "postpack"]) delete published.scripts?.[hook];
  writeFileSync(join(stage, "package.json"), `${JSON.stringify(published, null, 2)}\n`);
  for (const entry of ["LICENSE", "LICENCE", "LICENSE.md"]) {
    if (existsSync(join(repo, entry))) cpSync(join(repo, entry), join(stage, entry));
  }
  const stagedDanfo = join(stage, "node_modules/danfojs-node");
  mkdirSync(stagedDanfo, { recursive: true });
  for (const entry of ["dist", "README.md", "LICENSE"]) {
    if (existsSync(join(danfoDir, entry))) cpSync(join(danfoDir, entry), join(stagedDanfo, entry), { recursive: true });
  }
  const staged = { ...danfo, peerDependencies: peers };
  delete staged.dependencies;
  delete staged.devDependencies;
  delete staged.scripts;
  staged.mdpsNote = "bundled by mdps: dependencies met by mdps's own, from the npm registry (scripts/pack.mjs)";
  writeFileSync(join(stagedDanfo, "package.json"), `${JSON.stringify(staged, null, 2)}\n`);

  mkdirSync(destination, { recursive: true });
  const out = execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", destination], {
    cwd: stage,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  const [info] = JSON.parse(out);
  const foreign = info.files
    .map((f) => f.path)
    .filter((p) => p.startsWith("node_modules/") && !p.startsWith("node_modules/danfojs-node/"));
  if (foreign.length > 0) throw new Error(`unexpected bundled files: ${foreign.slice(0, 5).join(", ")}`);
  const mb = (n) => `${(n / 1e6).toFixed(1)} MB`;
  console.error(
    `pack: ${info.filename}: ${mb(info.size)} packed, ${mb(info.unpackedSize)} unpacked, ${info.entryCount} files`,
  );
  console.log(join(destination, info.filename));
} finally {
  rmSync(stage, { recursive: true, force: true });
}
