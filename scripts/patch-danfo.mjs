// danfojs-node 1.2.0 loads mathjs, TensorFlow.js, xlsx, request and node-fetch when it is
// imported, which costs about 2 s of CPU, though a DataFrame needs none of them until one
// of their functions is called (std, median, a tensor, readExcel, a URL). This script,
// run by `npm ci` and `npm install` (the `prepare` script) and by scripts/pack.mjs before
// it copies danfo's files into the package, makes each of those requires load on first
// use. It changes only how the modules are loaded, never what they compute; it is
// idempotent and refuses a danfo version or a file it does not recognise, naming the
// line it expected. test/danfo/lazy-danfo.test.ts checks the result.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const MARK = "/* mdps: loaded on first use */";

const LAZY_MODULE = `"use strict";
${MARK}
// A stand-in for a module that loads it when one of its properties is first read.
var loadedModules = new WeakMap();
function lazyModule(load) {
    var state = { module: undefined };
    var real = function () { return state.module === undefined ? (state.module = load()) : state.module; };
    var proxy = new Proxy({}, {
        get: function (_, key) { return real()[key]; },
        has: function (_, key) { return key in real(); },
        ownKeys: function () { return Reflect.ownKeys(real()); },
        getOwnPropertyDescriptor: function (_, key) {
            var d = Reflect.getOwnPropertyDescriptor(real(), key);
            return d === undefined ? undefined : Object.assign({}, d, { configurable: true });
        },
    });
    loadedModules.set(proxy, state);
    return proxy;
}
// False while the module behind a stand-in is not loaded: nothing can be one of its
// objects (a Tensor) before it is.
lazyModule.isLoaded = function (proxy) {
    var state = loadedModules.get(proxy);
    return state === undefined || state.module !== undefined;
};
module.exports = lazyModule;
`;

/** [file under dist/danfojs-base, line as danfo 1.2.0 has it, its replacement]. */
const EDITS = [
  [
    "shared/tensorflowlib.js",
    'var tf = require("@tensorflow/tfjs-node");',
    'var tf = require("./lazy-module")(function () { return require("@tensorflow/tfjs-node"); });',
  ],
  [
    "core/generic.js",
    "        if (data instanceof tensorflowlib_1.default.Tensor) {",
    '        if (require("../shared/lazy-module").isLoaded(tensorflowlib_1.default) && data instanceof tensorflowlib_1.default.Tensor) {',
  ],
  [
    "core/frame.js",
    'var mathjs_1 = require("mathjs");',
    'var mathjs_1 = require("../shared/lazy-module")(function () { return require("mathjs"); });',
  ],
  [
    "core/series.js",
    'var mathjs_1 = require("mathjs");',
    'var mathjs_1 = require("../shared/lazy-module")(function () { return require("mathjs"); });',
  ],
  [
    "aggregators/groupby.js",
    'var mathjs_1 = require("mathjs");',
    'var mathjs_1 = require("../shared/lazy-module")(function () { return require("mathjs"); });',
  ],
  [
    "io/node/io.excel.js",
    'var xlsx_1 = require("xlsx");',
    'var xlsx_1 = require("../../shared/lazy-module")(function () { return require("xlsx"); });',
  ],
  [
    "io/node/io.excel.js",
    'var node_fetch_1 = __importDefault(require("node-fetch"));',
    'var node_fetch_1 = { get default() { return __importDefault(require("node-fetch")).default; } };',
  ],
  [
    "io/node/io.json.js",
    'var node_fetch_1 = __importDefault(require("node-fetch"));',
    'var node_fetch_1 = { get default() { return __importDefault(require("node-fetch")).default; } };',
  ],
  [
    "io/node/io.json.js",
    'var request_1 = __importDefault(require("request"));',
    'var request_1 = { get default() { return __importDefault(require("request")).default; } };',
  ],
  [
    "io/node/io.csv.js",
    'var request_1 = __importDefault(require("request"));',
    'var request_1 = { get default() { return __importDefault(require("request")).default; } };',
  ],
];

/** Patches the danfojs-node in `nodeModules`; returns the number of lines changed (0 when already patched). */
export function patchDanfo(nodeModules) {
  const root = join(nodeModules, "danfojs-node");
  if (!existsSync(root)) return 0;
  const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  if (version !== "1.2.0")
    throw new Error(`patch-danfo: expects danfojs-node 1.2.0, found ${version}: update scripts/patch-danfo.mjs`);
  const base = join(root, "dist/danfojs-base");
  writeFileSync(join(base, "shared/lazy-module.js"), LAZY_MODULE);
  let changed = 0;
  for (const [file, from, to] of EDITS) {
    const path = join(base, file);
    const text = readFileSync(path, "utf8");
    if (text.includes(to)) continue;
    if (!text.includes(from)) throw new Error(`patch-danfo: ${path} has no line ${JSON.stringify(from)}`);
    writeFileSync(path, text.replace(from, to));
    changed++;
  }
  return changed;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const nodeModules = join(dirname(fileURLToPath(import.meta.url)), "../node_modules");
  const changed = patchDanfo(nodeModules);
  if (changed > 0) console.log(`patch-danfo: ${changed} requires in danfojs-node now load on first use`);
}
