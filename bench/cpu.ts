/**
 * CPU time (user + system, all threads), which other work on a shared machine barely
 * moves, for what a user waits on: `mdps --help`, `mdps repl` to its prompt,
 * `Session.local()` plus a first small job in a fresh process, a small job in steady
 * state (client and service in one process) and a 1,000,000 x 10 DataFrame ->
 * StandardScaler -> DataFrame call. Each row is printed with its baseline from the same
 * run: a bare `node -e 0`, and /usr/bin/python3 with pandas and scikit-learn doing the
 * same work in memory (`time.process_time()`, also all threads). A fresh process
 * measures itself with bench/cpu-probe.ts (preloaded), a Session row with
 * process.cpuUsage() around the work.
 *
 *   npm run bench -- --cpu
 *   npm run build --silent && node dist/bench/cpu.js [--rows 1000000] [--jobs 20] [--runs 3] [--no-python] [--entry src]
 *
 * `--entry bundle` (the default) measures what users run, the bundles in dist/bundle
 * (scripts/bundle.mjs); `--entry src` the same code as tsc compiled it, one module a file.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { DataFrame } from "danfojs-node";
import { summaryRow } from "./summary.js";
import { median } from "./timing.js";

const { values: options } = parseArgs({
  options: {
    rows: { type: "string", default: "1000000" },
    jobs: { type: "string", default: "20" },
    runs: { type: "string", default: "3" },
    "no-python": { type: "boolean", default: false },
    entry: { type: "string", default: "bundle" },
    /** Internal: be the fresh process of one row ("first-job", "steady" or "big") on this data dir. */
    child: { type: "string" },
    "data-dir": { type: "string" },
  },
});
const ROWS = Number(options.rows);
const JOBS = Number(options.jobs);
const RUNS = Number(options.runs);

const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));
if (options.entry !== "bundle" && options.entry !== "src") throw new Error("--entry is bundle or src");
const BUNDLED = options.entry === "bundle";
const MAIN = here(BUNDLED ? "../bundle/main.js" : "../src/cli/main.js");
const INDEX = new URL(BUNDLED ? "../bundle/index.js" : "../src/index.js", import.meta.url).href;
const PROBE = here("./cpu-probe.js");
const cpuMs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

// ---- the child processes ---------------------------------------------------------------

async function makeFrame(rows: number): Promise<DataFrame> {
  const { DataFrame } = await import("danfojs-node");
  const data: Record<string, number[]> = {};
  for (let c = 0; c < 10; c++) data[`f${c}`] = Array.from({ length: rows }, (_, i) => ((i * (c + 7)) % 997) / 13);
  return new DataFrame(data);
}

async function child(kind: string, dataDir: string): Promise<void> {
  const marks: Record<string, number> = {};
  const { Session } = (await import(INDEX)) as typeof import("../src/index.js");
  marks.importMdps = cpuMs();
  const small = await makeFrame(1000);
  marks.importDanfo = cpuMs();
  const session = await Session.local({ dataDir });
  marks.local = cpuMs();
  const columns = small.columns.map(String);
  const job = async (df: DataFrame) => (await session.preprocess(df, { type: "StandardScaler", columns })).dataframe();
  await job(small);
  marks.firstJob = cpuMs();
  if (kind === "steady") {
    for (let i = 0; i < 5; i++) await job(small);
    const c0 = cpuMs();
    for (let i = 0; i < JOBS; i++) await job(small);
    marks.perJob = (cpuMs() - c0) / JOBS;
  } else if (kind === "big") {
    const big = await makeFrame(ROWS);
    const c0 = cpuMs();
    await job(big);
    marks.bigCall = cpuMs() - c0;
  }
  await session.close();
  console.log(JSON.stringify(marks));
}

// ---- the parent ------------------------------------------------------------------------

function runChild(kind: string, dataDir: string): Record<string, number> {
  const run = spawnSync(
    process.execPath,
    [
      fileURLToPath(import.meta.url),
      "--child",
      kind,
      "--data-dir",
      dataDir,
      "--rows",
      String(ROWS),
      "--jobs",
      String(JOBS),
      "--entry",
      options.entry,
    ],
    { encoding: "utf8", maxBuffer: 64 << 20 },
  );
  if (run.status !== 0) throw new Error(`the ${kind} process failed: ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split("\n").pop()!) as Record<string, number>;
}

/** CPU ms of a fresh `node` process running `args`, read by the probe (at `mark` on stdout, else at exit). */
function probed(dir: string, args: string[], mark?: string): number | undefined {
  const file = join(dir, "probe.txt");
  rmSync(file, { force: true });
  const env = {
    ...process.env,
    MDPS_CPU_PROBE_FILE: file,
    MDPS_HOME: join(dir, "home"),
    ...(mark ? { MDPS_CPU_PROBE_MARK: mark } : {}),
  };
  const argv = [process.execPath, "--import", PROBE, ...args];
  // The REPL's prompt needs a terminal: `script` (util-linux) gives it one, sized as a person's.
  const run = mark
    ? spawnSync(
        "script",
        [
          "-qec",
          `stty cols 120 rows 40; exec ${argv.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ")}`,
          "/dev/null",
        ],
        {
          env,
          stdio: ["pipe", "ignore", "ignore"],
          timeout: 120_000,
        },
      )
    : spawnSync(argv[0]!, argv.slice(1), { env, stdio: "ignore", timeout: 120_000 });
  if (run.error || !existsSync(file)) return undefined;
  return Number(readFileSync(file, "utf8"));
}

interface Python {
  bare: number;
  imports: number;
  firstCall: number;
  perCall: number;
  bigCall: number;
}

function python(): Python | undefined {
  if (options["no-python"]) return undefined;
  const bare = spawnSync("/usr/bin/python3", ["-c", "import time; print(time.process_time())"], { encoding: "utf8" });
  const script = `
import json, time
import numpy as np, pandas as pd
from sklearn.preprocessing import StandardScaler
cpu = lambda: time.process_time() * 1000
imports = cpu()
cols = [f"f{i}" for i in range(10)]
small = pd.DataFrame(np.random.default_rng(7).random((1000, 10)), columns=cols)
call = lambda df: pd.DataFrame(StandardScaler().fit_transform(df), columns=df.columns)
c0 = cpu(); call(small); first = cpu() - c0
c0 = cpu()
for _ in range(200): call(small)
per = (cpu() - c0) / 200
big = pd.DataFrame(np.random.default_rng(7).random((${ROWS}, 10)), columns=cols)
c0 = cpu(); call(big); big_call = cpu() - c0
print(json.dumps({"imports": imports, "firstCall": first, "perCall": per, "bigCall": big_call}))
`;
  const run = spawnSync("/usr/bin/python3", ["-c", script], { encoding: "utf8" });
  if (bare.status !== 0 || run.status !== 0) return undefined;
  return { bare: Number(bare.stdout) * 1000, ...(JSON.parse(run.stdout.trim()) as Omit<Python, "bare">) };
}

const ms = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? "-" : `${x.toFixed(x < 10 ? 1 : 0)} ms`);
const range = (xs: number[]) => (xs.length === 0 ? "-" : `${ms(median(xs))} (${xs.map(ms).join(", ")})`);

function main(): void {
  const dir = mkdtempSync(join(tmpdir(), "mdps-cpu-"));
  try {
    const floor: number[] = [];
    const help: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      floor.push(probed(dir, ["-e", "0"]) ?? NaN);
      help.push(probed(dir, [MAIN, "--help"]) ?? NaN);
    }
    const replDir = join(dir, "repl");
    const replNew = probed(dir, [MAIN, "repl", "--local", "--data-dir", replDir], "mdps›");
    const repl: number[] = [];
    for (let i = 0; i < RUNS - 1; i++) {
      const r = probed(dir, [MAIN, "repl", "--local", "--data-dir", replDir], "mdps›");
      if (r !== undefined) repl.push(r);
    }
    const firstNew = runChild("first-job", join(dir, "first"));
    const firsts = Array.from({ length: RUNS - 1 }, () => runChild("first-job", join(dir, "first")));
    const steady = runChild("steady", join(dir, "steady"));
    const big = runChild("big", join(dir, "big"));
    const py = python();

    const first = firsts.map((r) => r.firstJob!);
    const pick = (key: string) => median(firsts.map((r) => r[key]!));
    const breakdown =
      `import mdps ${ms(pick("importMdps"))}, + danfo and a frame ${ms(pick("importDanfo") - pick("importMdps"))}, ` +
      `Session.local() ${ms(pick("local") - pick("importDanfo"))}, first job ${ms(pick("firstJob") - pick("local"))}`;
    const rows: { what: string; mdps: string; baseline: string; target: string }[] = [
      {
        what: "`mdps --help`, fresh process",
        mdps: range(help),
        baseline: `\`node -e 0\` ${range(floor)}`,
        target: "<= 150 ms",
      },
      {
        what: "`mdps repl` to its prompt (existing data dir)",
        mdps: `${range(repl)}; new data dir ${ms(replNew)}`,
        baseline: py ? `python3 importing pandas + scikit-learn ${ms(py.imports)}` : "-",
        target: "<= 1 s",
      },
      {
        what: "`Session.local()` + first small job, fresh process (existing data dir)",
        mdps: `${range(first)} [${breakdown}]; new data dir ${ms(firstNew.firstJob)}`,
        baseline: py ? `fresh python3: imports ${ms(py.imports)}, first call ${ms(py.firstCall)}` : "-",
        target: "<= 400 ms",
      },
      {
        what: `small job, steady state, client + service in one process (${JOBS} jobs)`,
        mdps: `${ms(steady.perJob)} a job`,
        baseline: py ? `pandas + scikit-learn in memory ${ms(py.perCall)} a call (python3 itself ${ms(py.bare)})` : "-",
        target: "<= 10 ms",
      },
      {
        what: `${ROWS.toLocaleString("en")} x 10 DataFrame -> StandardScaler -> DataFrame, one call`,
        mdps: ms(big.bigCall),
        baseline: py ? `pandas + scikit-learn in memory ${ms(py.bigCall)}` : "-",
        target: "<= 1.0 s",
      },
    ];
    console.log("CPU time (user + system, all threads), ms; the median of the runs, then each run");
    console.log("");
    console.log("| what | mdps | baseline, same run | target |");
    console.log("|---|---|---|---|");
    for (const row of rows) {
      console.log(`| ${row.what} | ${row.mdps} | ${row.baseline} | ${row.target} |`);
      summaryRow({ ...row, what: `CPU: ${row.what}` });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (options.child !== undefined) await child(options.child, options["data-dir"]!);
else main();
