/**
 * What a process loads at start decides how much CPU it spends before doing anything:
 * `mdps --help` must not load the contract's schemas (zod) or the demo, `import "mdps"`
 * must not load danfo, Arrow, Parquet, vega, React or the service, and danfo itself
 * (patched by scripts/patch-danfo.mjs) must not load mathjs, TensorFlow.js, xlsx or
 * request until one of their functions is called, and then give the same numbers. The
 * REPL's commands (through src/internal) load Arrow and Parquet only when a file is read
 * or written, and then write and read the same bytes as the formats module itself.
 * Each check runs a fresh child process that lists every module it loaded.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, MAIN, ROOT } from "./built-cli.js";

let dir: string;
let register: string;

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "mdps-lazy-"));
  // A loader hook that appends each module URL (ESM and CommonJS alike) to MDPS_TEST_LOADED.
  writeFileSync(
    join(dir, "hooks.mjs"),
    `import { appendFileSync } from "node:fs";
     export async function load(url, context, next) {
       appendFileSync(process.env.MDPS_TEST_LOADED, url + "\\n");
       return next(url, context);
     }`,
  );
  register = join(dir, "register.mjs");
  writeFileSync(
    register,
    `import { register } from "node:module";
     import Module from "node:module";
     import { appendFileSync } from "node:fs";
     register(${JSON.stringify(pathToFileURL(join(dir, "hooks.mjs")).href)});
     const load = Module._load;
     Module._load = function (request, parent, isMain) {
       const out = load.apply(this, arguments);
       try { appendFileSync(process.env.MDPS_TEST_LOADED, Module._resolveFilename(request, parent, isMain) + "\\n"); } catch {}
       return out;
     };`,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Runs node with `args` and returns the packages (and mdps's own dist folders) it loaded,
 * the files of the bundles (dist/bundle) it loaded, and its stdout.
 */
function loaded(name: string, args: string[]): { packages: Set<string>; bundleFiles: string[]; stdout: string } {
  const file = join(dir, `${name}.txt`);
  writeFileSync(file, "");
  const stdout = execFileSync(process.execPath, ["--import", pathToFileURL(register).href, ...args], {
    cwd: ROOT,
    env: { ...process.env, MDPS_TEST_LOADED: file },
    encoding: "utf8",
  });
  const packages = new Set<string>();
  const bundleFiles = new Set<string>();
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(line) ?? /dist\/(src\/[^/]+)\//.exec(line);
    if (m?.[1]) packages.add(m[1]);
    if (line.includes("/dist/bundle/")) bundleFiles.add(line.startsWith("file:") ? fileURLToPath(line) : line);
  }
  return { packages, bundleFiles: [...bundleFiles], stdout };
}

const HEAVY = ["mathjs", "@tensorflow/tfjs", "xlsx", "request"];

/** Bundled files holding `marker` (text only one package's code has). */
const holding = (files: string[], marker: string) => files.filter((f) => readFileSync(f, "utf8").includes(marker));
const ZOD = "ZodError";
const FASTIFY = "FST_ERR_CTP_INVALID_MEDIA_TYPE";
const INK = "react-reconciler";

describe("what loads at start", () => {
  // The modules as tsc compiled them, one file each, show what each import pulls in;
  // the bundles split at the same dynamic imports (checked below).
  it("mdps --help loads commander and the command definitions, not zod or the contract", () => {
    const { packages, stdout } = loaded("help", [join(ROOT, "dist/src/cli/main.js"), "--help"]);
    expect(stdout).toContain("demo");
    expect(packages.has("commander")).toBe(true);
    // (src/server's version and admin-error modules are small; Fastify and SQLite are not.)
    for (const heavy of ["zod", "src/core/contract", "danfojs-node", "ink", "react", "fastify", "better-sqlite3"])
      expect([heavy, packages.has(heavy)]).toEqual([heavy, false]);
  });

  it('import "mdps" loads neither danfo nor Arrow, Parquet, vega, React or the service', () => {
    const { packages } = loaded("index", [
      "--input-type=module",
      "-e",
      `await import(${JSON.stringify(pathToFileURL(join(ROOT, "dist/src/index.js")).href)})`,
    ]);
    expect(packages.has("src/session")).toBe(true);
    const heavy = [
      "danfojs-node",
      "apache-arrow",
      "hyparquet",
      "vega",
      "vega-lite",
      "react",
      "ink",
      "fastify",
      "src/server",
      ...HEAVY,
    ];
    expect(heavy.filter((name) => packages.has(name))).toEqual([]);
  });

  it("the REPL's commands load Arrow and Parquet only when a file is read or written, with the same bytes", () => {
    const url = (path: string) => JSON.stringify(pathToFileURL(join(ROOT, path)).href);
    const script = `
      import { readFileSync } from "node:fs";
      const formatsLoaded = () => /node_modules\\/(apache-arrow|hyparquet|hyparquet-writer)\\//.test(readFileSync(process.env.MDPS_TEST_LOADED, "utf8"));
      await import(${url("dist/repl/commands/registry.js")});
      const internal = await import(${url("dist/src/internal/index.js")});
      const atStart = formatsLoaded();
      // Missing values, a huge integer, text that looks like a number, a hostile name.
      const table = { rowCount: 3, columns: [
        { name: "x", kind: "number", values: Float64Array.from([1.5, NaN, 2 ** 53 + 2]) },
        { name: "s\\u001b]0;t", kind: "string", values: ["0.10", null, "NaN"] },
      ] };
      const bytes = async (chunks) => { const all = []; for await (const c of chunks) all.push(c); return Buffer.concat(all); };
      const lazy = { parquet: await bytes(internal.writeTable("parquet", table)), arrow: await bytes(internal.writeTable("arrow", table)) };
      const afterWrite = formatsLoaded();
      const formats = await import(${url("dist/src/core/formats/index.js")});
      const direct = { parquet: await bytes(formats.writeTable("parquet", table)), arrow: await bytes(formats.writeTable("arrow", table)) };
      const back = await internal.readTable("parquet", new Uint8Array(lazy.parquet));
      console.log(JSON.stringify({
        atStart, afterWrite,
        sameParquet: lazy.parquet.equals(direct.parquet), sameArrow: lazy.arrow.equals(direct.arrow),
        back: back.columns.map((c) => [c.name, Array.from(c.values, (v) => (typeof v === "number" && Number.isNaN(v) ? "NaN!" : v))]),
      }));`;
    const { stdout } = loaded("repl-formats", ["--input-type=module", "-e", script]);
    const result = JSON.parse(stdout.trim().split("\n").pop()!) as Record<string, unknown>;
    expect(result).toEqual({
      atStart: false,
      afterWrite: true,
      sameParquet: true,
      sameArrow: true,
      back: [
        ["x", [1.5, "NaN!", 2 ** 53 + 2]],
        ["s\u001b]0;t", ["0.10", null, "NaN"]],
      ],
    });
  });

  it("danfo loads mathjs and TensorFlow.js only when a function of theirs runs, with the same results", () => {
    const script = `
      const dfd = require("danfojs-node");
      // danfo leaves out missing values, so the last column is [5] for mathjs.
      const df = new dfd.DataFrame({ a: [1, 2.5, -3e-300, 7, NaN], b: [0.1, 0.2, 0.30000000000000004, 1e16, 5] });
      new dfd.Series([1, 2]);
      const before = Object.keys(require.cache).filter((k) => /node_modules\\/(mathjs|@tensorflow|xlsx|request)\\//.test(k)).length;
      const math = require("mathjs");
      const ours = [df.std().values, df.median().values, df.var().values, df.tensor.shape];
      const direct = [
        [math.std([1, 0.1]), math.std([2.5, 0.2]), math.std([-3e-300, 0.30000000000000004]), math.std([7, 1e16]), math.std([5])],
        [math.median([1, 0.1]), math.median([2.5, 0.2]), math.median([-3e-300, 0.30000000000000004]), math.median([7, 1e16]), math.median([5])],
        [math.variance([1, 0.1]), math.variance([2.5, 0.2]), math.variance([-3e-300, 0.30000000000000004]), math.variance([7, 1e16]), math.variance([5])],
        [5, 2],
      ];
      const fromTensor = new dfd.DataFrame(dfd.tensorflow.tensor2d([[1, 2], [3, 4]])).values;
      console.log(JSON.stringify({ before, ours: String(ours), direct: String(direct), fromTensor }));`;
    const { stdout } = loaded("danfo", ["-e", script]);
    const result = JSON.parse(stdout.trim().split("\n").pop()!) as {
      before: number;
      ours: string;
      direct: string;
      fromTensor: number[][];
    };
    expect(result.before).toBe(0);
    expect(result.ours).toBe(result.direct);
    expect(result.fromTensor).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });
});

describe("what the bundles (dist/bundle) load at start", () => {
  it("the mdps command's --help loads a few of its files, no package, zod or Fastify", () => {
    const { packages, bundleFiles, stdout } = loaded("bundle-help", [MAIN, "--help"]);
    expect(stdout).toContain("demo");
    expect(MAIN).toContain("/dist/bundle/");
    expect([...packages]).toEqual([]);
    expect(bundleFiles.length).toBeGreaterThan(0);
    expect(bundleFiles.length).toBeLessThanOrEqual(12);
    expect(holding(bundleFiles, ZOD)).toEqual([]);
    expect(holding(bundleFiles, FASTIFY)).toEqual([]);
  });

  it('import "mdps" loads no package, and neither the service nor Ink', () => {
    const { packages, bundleFiles } = loaded("bundle-index", ["--input-type=module", "-e", `await import("mdps")`]);
    expect([...packages]).toEqual([]);
    expect(holding(bundleFiles, ZOD).length).toBeGreaterThan(0);
    expect(holding(bundleFiles, FASTIFY)).toEqual([]);
    expect(holding(bundleFiles, INK)).toEqual([]);
    expect(bundleFiles.map((f) => f.split("/").pop())).not.toContain("service.js");
  });

  it("Session.local() starts the service without react-dom's renderer or Ink, and still serves a portal page", () => {
    const script = `
      import { readFileSync } from "node:fs";
      const { Session } = await import("mdps");
      const session = await Session.local({ dataDir: ${JSON.stringify(join(dir, "local-data"))} });
      const loadedNow = () => readFileSync(process.env.MDPS_TEST_LOADED, "utf8");
      const atStart = /node_modules\\/react-dom\\//.test(loadedNow());
      const page = await fetch(new URL("/login", session.baseUrl));
      const html = await page.text();
      const afterPage = /node_modules\\/react-dom\\//.test(loadedNow());
      await session.close();
      console.log(JSON.stringify({ atStart, afterPage, status: page.status, html: html.startsWith("<!DOCTYPE html>") }));`;
    const { bundleFiles, stdout } = loaded("bundle-local", ["--input-type=module", "-e", script]);
    expect(JSON.parse(stdout.trim().split("\n").pop()!)).toEqual({
      atStart: false,
      afterPage: true,
      status: 200,
      html: true,
    });
    expect(holding(bundleFiles, INK)).toEqual([]);
  });

  it("a DataFrame job loads Apache Arrow but not hyparquet, and a .parquet download loads it", () => {
    const out = join(dir, "scaled.parquet");
    // A file, not -e: the job worker thread inherits the process's flags, and --input-type with them.
    const script = join(dir, "codecs.mjs");
    writeFileSync(
      script,
      `
      import { readFileSync } from "node:fs";
      import { createRequire } from "node:module";
      const { Session } = await import(${JSON.stringify(pathToFileURL(join(ROOT, "dist/bundle/index.js")).href)});
      const { DataFrame } = createRequire(${JSON.stringify(join(ROOT, "package.json"))})("danfojs-node");
      const session = await Session.local({ dataDir: ${JSON.stringify(join(dir, "parquet-data"))} });
      const files = () => readFileSync(process.env.MDPS_TEST_LOADED, "utf8").split("\\n").filter((f) => f.includes("/dist/bundle/"));
      const holding = (marker) => files().filter((f) => readFileSync(f.startsWith("file:") ? new URL(f) : f, "utf8").includes(marker)).length > 0;
      const df = new DataFrame({ x: [1, 2, 3, 4], y: [2.5, 0, -1, 7] });
      const job = await session.preprocess(df, { type: "StandardScaler", columns: ["x", "y"] });
      const scaled = await job.dataframe();
      const afterJob = { arrow: holding("node_modules/apache-arrow/"), parquet: holding("node_modules/hyparquet/") };
      await job.download(${JSON.stringify(out)});
      const afterDownload = { parquet: holding("node_modules/hyparquet-writer/") };
      await session.close();
      console.log(JSON.stringify({ afterJob, afterDownload, x: scaled.column("x").values.map((v) => Math.round(v * 1000) / 1000) }));`,
    );
    const { stdout } = loaded("bundle-codecs", [script]);
    expect(JSON.parse(stdout.trim().split("\n").pop()!)).toEqual({
      afterJob: { arrow: true, parquet: false },
      afterDownload: { parquet: true },
      x: [-1.342, -0.447, 0.447, 1.342],
    });
    expect(readFileSync(out).subarray(0, 4).toString("latin1")).toBe("PAR1");
  });
});
