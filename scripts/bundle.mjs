#!/usr/bin/env node
/**
 * Bundles the compiled entry points (dist/src, from tsc) into dist/bundle with esbuild: a
 * process then resolves, reads and compiles a few files instead of some 2,800 modules,
 * which was about half of mdps's start-up CPU. The entries share chunks (code splitting),
 * so `mdps`, `mdps/danfo` and `mdps/service` imported together load each class once (an
 * `instanceof` across them holds), and what an entry imports lazily stays a chunk loaded
 * when first needed. The job worker thread is an entry of its own, next to the chunk that
 * starts it (`new URL("./job-worker.js", import.meta.url)`).
 *
 * tsc's dist/src stays: its declarations type the package, and tests import its modules.
 *
 *   node scripts/bundle.mjs [dist] [--meta]   # --meta: print esbuild's metafile (what each file holds)
 */
import { build } from "esbuild";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const dist = resolve(root, process.argv.slice(2).find((arg) => !arg.startsWith("--")) ?? "dist");
const outdir = join(dist, "bundle");

/** Output name -> compiled entry. The names are what package.json's bin, main and exports point at. */
const ENTRIES = {
  index: "src/index.js",
  danfo: "src/danfo/index.js",
  service: "src/server/index.js",
  main: "src/cli/main.js",
  "job-worker": "src/server/jobs/job-worker.js",
};

/**
 * Packages left to Node: native addons (better-sqlite3; pg's optional pg-native), danfo
 * (shipped patched inside mdps's package, with TensorFlow.js and its other heavy parts
 * loaded on first use) and the optional or development-only packages that mdps only
 * ever loads on a user's request.
 */
const EXTERNAL = [
  "better-sqlite3",
  "pg",
  "pg-native",
  "danfojs-node",
  "@tensorflow/tfjs-node",
  "@tensorflow/tfjs",
  "tsx",
  "tslab",
  "@duckdb/node-api",
  "playwright-core",
  // Ink's devtools connection, imported only when DEV=true and not installed.
  "react-devtools-core",
  // One React for Ink's renderer and the portal's, which requires react-dom's server
  // renderer from node_modules at its first page.
  "react",
  "react-dom",
];

// Bundled CommonJS packages call require() for Node's built-ins; ESM output has no
// require of its own, so each chunk gets one.
const banner = `import { createRequire as __mdpsCreateRequire } from "node:module";
const require = __mdpsCreateRequire(import.meta.url);`;

/**
 * The service finds its store adapters by reading the folders beside
 * server/store/adapter-folders.js; a bundle has no such folders, so that module is
 * replaced by one that imports the adapter folders found now, at build time. A new store
 * is still one new folder: the next build takes it in.
 */
const storeAdapterFolders = {
  name: "store-adapter-folders",
  setup(builder) {
    builder.onLoad({ filter: /[\\/]server[\\/]store[\\/]adapter-folders\.js$/ }, (args) => {
      const dir = dirname(args.path);
      const folders = readdirSync(dir, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, "adapter.js")))
        .map((entry) => entry.name)
        .sort();
      const loads = folders.map(
        (folder) => `{ file: "store/${folder}/adapter.js", exports: await import("./${folder}/adapter.js") }`,
      );
      const contents = [
        `export const ADAPTERS_PLACE = "the bundle (built with the store adapters ${folders.join(", ")})";`,
        `export async function loadAdapterModules() { return [${loads.join(", ")}]; }`,
      ].join("\n");
      return { contents, resolveDir: dir, loader: "js" };
    });
  },
};

/**
 * Moves what `staging` holds into `outdir`, file by file, each by a rename (atomic), and
 * only where it differs; then removes what the new build no longer has. Processes may be
 * running from `outdir` meanwhile (a notebook kernel, a service, its job worker loading
 * its entry at the first job): the folder and its entries never go missing, and a build
 * of unchanged code writes nothing. Chunks first, entries last: an entry never names a
 * chunk that is not there yet.
 */
function replaceChanged(staging, outdir) {
  mkdirSync(outdir, { recursive: true });
  const entryFiles = new Set(Object.keys(ENTRIES).map((name) => `${name}.js`));
  const built = readdirSync(staging).sort((a, b) => Number(entryFiles.has(a)) - Number(entryFiles.has(b)));
  const same = (a, b) =>
    existsSync(b) && statSync(a).mode === statSync(b).mode && readFileSync(a).equals(readFileSync(b));
  for (const name of built) {
    if (!same(join(staging, name), join(outdir, name))) renameSync(join(staging, name), join(outdir, name));
  }
  const kept = new Set(built);
  for (const name of readdirSync(outdir))
    if (!kept.has(name)) rmSync(join(outdir, name), { recursive: true, force: true });
  rmSync(staging, { recursive: true, force: true });
}

// One name: what a build that died left there is cleared by the next, never shipped.
const staging = `${outdir}.next`;
rmSync(staging, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, path]) => [name, join(dist, path)])),
  outdir: staging,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external: EXTERNAL,
  banner: { js: banner },
  chunkNames: "[name]-[hash]",
  legalComments: "linked",
  metafile: true,
  plugins: [storeAdapterFolders],
  logLevel: "warning",
});
chmodSync(join(staging, "main.js"), 0o755);
replaceChanged(staging, outdir);
if (process.argv.includes("--meta")) console.log(JSON.stringify(result.metafile));
