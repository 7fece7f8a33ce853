/**
 * End to end: a 1,000,000 x 10 danfo DataFrame to a StandardScaler-ed DataFrame on
 * Session.local() (temp data dir), broken down into encode, upload, queue, run,
 * download, decode, with peak memory; then the one-call path a user writes, and the heap
 * it keeps once the caller drops the frame; then, in the same run, pandas + scikit-learn
 * with the data in memory (DataFrame -> StandardScaler -> DataFrame) and the Python
 * analyst's file pipeline (pandas read_csv, StandardScaler, to_csv) when /usr/bin/python3
 * has them, and the ratios.
 *
 *   npm run build && node dist/bench/e2e.js [--rows 1000000] [--cols 10] [--no-python]
 */
import { parseArgs } from "node:util";
import { spawnSync } from "node:child_process";
import { createWriteStream, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { DataFrame } from "danfojs-node";
import { Session } from "../src/index.js";
import { dataFrameFromTable, tableFromDataFrame } from "../src/core/formats/danfo.js";
import { readTable, writeTable } from "../src/core/formats/index.js";
import { summaryRow } from "./summary.js";

const { values: options } = parseArgs({
  options: {
    rows: { type: "string", default: "1000000" },
    cols: { type: "string", default: "10" },
    "no-python": { type: "boolean", default: false },
  },
});
const ROWS = Number(options.rows);
const COLS = Number(options.cols);
const PYTHON = !options["no-python"];

const MB = 1024 * 1024;
const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;
const sec = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** Peak RSS from the kernel; peak heap sampled (the main thread yields between stages). */
class MemoryWatch {
  #heap = 0;
  readonly #timer = setInterval(() => this.sample(), 20);
  sample(): void {
    this.#heap = Math.max(this.#heap, process.memoryUsage().heapUsed);
  }
  stop(): { rss: number; heap: number } {
    clearInterval(this.#timer);
    this.sample();
    return { rss: process.resourceUsage().maxRSS * 1024, heap: this.#heap };
  }
}

function makeFrame(rows: number, cols: number): DataFrame {
  let seed = 42;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const data: Record<string, Float64Array | number[]> = {};
  for (let c = 0; c < cols; c++) {
    const col = new Array<number>(rows);
    const scale = 10 ** (c % 4);
    for (let r = 0; r < rows; r++) col[r] = (rand() - 0.5) * scale + c;
    data[`f${c}`] = col;
  }
  return new DataFrame(data);
}

async function time<T>(label: string, times: Record<string, number>, fn: () => Promise<T> | T): Promise<T> {
  const t0 = performance.now();
  const value = await fn();
  times[label] = performance.now() - t0;
  return value;
}

async function collect(source: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const part of source) parts.push(part);
  return Buffer.concat(parts);
}

function pythonBaseline(csvPath: string, outPath: string): Record<string, number> | undefined {
  const probe = spawnSync("/usr/bin/python3", ["-c", "import pandas, sklearn"], { encoding: "utf8" });
  if (probe.status !== 0) return undefined;
  const script = `
import json, time, pandas as pd
from sklearn.preprocessing import StandardScaler
t0 = time.perf_counter()
df = pd.read_csv(${JSON.stringify(csvPath)})
t1 = time.perf_counter()
cols = list(df.select_dtypes("number").columns)
df[cols] = StandardScaler().fit_transform(df[cols])
t2 = time.perf_counter()
df.to_csv(${JSON.stringify(outPath)}, index=False)
t3 = time.perf_counter()
print(json.dumps({"read_csv": (t1 - t0) * 1000, "fit_transform": (t2 - t1) * 1000, "to_csv": (t3 - t2) * 1000, "total": (t3 - t0) * 1000}))
`;
  const run = spawnSync("/usr/bin/python3", ["-c", script], { encoding: "utf8", maxBuffer: 1 << 20 });
  if (run.status !== 0) throw new Error(`python baseline failed: ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split("\n").pop()!) as Record<string, number>;
}

/** pandas + scikit-learn with the data in memory: the same frame shape, fit_transform into a new DataFrame. */
function pythonInMemory(): { ms: number; rssMb: number } | undefined {
  const script = `
import json, time, resource, numpy as np, pandas as pd
from sklearn.preprocessing import StandardScaler
rng = np.random.default_rng(42)
df = pd.DataFrame(rng.random((${ROWS}, ${COLS})), columns=[f"f{i}" for i in range(${COLS})])
times = []
for _ in range(3):
    t0 = time.perf_counter()
    out = pd.DataFrame(StandardScaler().fit_transform(df), columns=df.columns)
    times.append((time.perf_counter() - t0) * 1000)
print(json.dumps({"ms": sorted(times)[1], "rssMb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
`;
  const run = spawnSync("/usr/bin/python3", ["-c", script], { encoding: "utf8" });
  if (run.status !== 0) return undefined;
  return JSON.parse(run.stdout.trim().split("\n").pop()!) as { ms: number; rssMb: number };
}

/** Heap and external memory in use after full collections, bytes. */
function inUse(): number {
  global.gc?.();
  global.gc?.();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "mdps-e2e-"));
  try {
    console.log(`mdps end to end: ${ROWS.toLocaleString("en")} x ${COLS} float64, StandardScaler, Session.local()`);
    const df = makeFrame(ROWS, COLS);
    global.gc?.();
    const baseRss = process.memoryUsage().rss;
    const session = await Session.local({ dataDir: join(dir, "data") });
    const times: Record<string, number> = {};
    const watch = new MemoryWatch();

    // 1. Stage by stage, with the low-level pieces the Session is made of (in a function,
    // so its buffers are garbage before the memory of the one call is measured).
    const stages = async () => {
      const bytes = await time("encode", times, async () => collect(writeTable("arrow", tableFromDataFrame(df))));
      const blob = await time("upload", times, () => session.upload(bytes, { recordType: "arrow", name: "e2e" }));
      const job = await session.preprocess(blob, { type: "StandardScaler" });
      const record = await time("wait", times, () => job.wait({ pollIntervalMs: 50 }));
      const started = Date.parse(record.started_at!);
      times.queue = started - Date.parse(record.created_at!);
      times.run = Date.parse(record.finished_at!) - started;
      const [output] = await job.outputs();
      const outBytes = await time("download", times, () => output!.bytes());
      await time("decode", times, async () =>
        dataFrameFromTable(await readTable("arrow", outBytes, { numericColumns: [] })),
      );
      return bytes.length;
    };
    const wireBytes = await stages();
    const staged = times.encode! + times.upload! + times.wait! + times.download! + times.decode!;

    // 2. The one call a user writes, in a function so that nothing but the caller holds the
    // result; then what stays in use once the caller dropped it, with the session still open.
    const before = inUse();
    const oneCallOf = async () => {
      const t0 = performance.now();
      const result = await (await session.preprocess(df, { type: "StandardScaler" })).dataframe();
      const elapsed = performance.now() - t0;
      if (result.shape[0] !== ROWS) throw new Error(`expected ${ROWS} rows, got ${result.shape[0]}`);
      return { elapsed, holding: inUse() - before };
    };
    const { elapsed: oneCall, holding } = await oneCallOf();
    const kept = inUse() - before;
    const memory = watch.stop();
    await session.close();

    console.log("");
    console.log("stage      time");
    for (const stage of ["encode", "upload", "queue", "run", "download", "decode"]) {
      console.log(`${stage.padEnd(10)} ${sec(times[stage]!)}`);
    }
    console.log(`(wait      ${sec(times.wait!)} = queue + run + polling)`);
    console.log(`staged total          ${sec(staged)}   (${mb(wireBytes)} Arrow IPC each way)`);
    console.log(`one call (preprocess(df) + dataframe())  ${sec(oneCall)}`);
    console.log(`peak RSS ${mb(memory.rss)} (DataFrame built: ${mb(baseRss)}), peak heap used ${mb(memory.heap)}`);
    console.log(
      `heap + external in use: ${mb(holding)} more while the caller holds the result, ${mb(kept)} more once it dropped it (session open)`,
    );

    const inMemory = PYTHON ? pythonInMemory() : undefined;
    if (inMemory) {
      console.log(
        `pandas + scikit-learn in memory: ${sec(inMemory.ms)} (peak RSS ${inMemory.rssMb.toFixed(0)} MB); mdps one call / that = ${(oneCall / inMemory.ms).toFixed(1)}x`,
      );
    }
    const size = `${(ROWS / 1e6).toLocaleString("en")}M x ${COLS}`;
    summaryRow({
      what: `${size} DataFrame -> StandardScaler -> DataFrame, one call, Session.local()`,
      mdps: `${sec(oneCall)} (staged: encode ${sec(times.encode!)}, upload ${sec(times.upload!)}, run ${sec(times.run!)}, download ${sec(times.download!)}, decode ${sec(times.decode!)}); peak RSS ${mb(memory.rss)}`,
      baseline: inMemory
        ? `pandas + scikit-learn in memory ${sec(inMemory.ms)}, peak RSS ${inMemory.rssMb.toFixed(0)} MB`
        : "python skipped",
      target: "<= 1.0 s",
    });
    summaryRow({
      what: "memory kept after a call (caller dropped the result, session open)",
      mdps: `${mb(kept)} (${mb(holding)} while the caller holds the ${size} result)`,
      baseline: "pandas: what the caller holds",
      target: "nothing the user does not hold",
    });

    if (!PYTHON) return;
    const csvPath = join(dir, "input.csv");
    await pipeline(Readable.from(writeTable("csv", tableFromDataFrame(df))), createWriteStream(csvPath));
    const python = pythonBaseline(csvPath, join(dir, "output.csv"));
    if (python === undefined) {
      console.log("\npython baseline skipped: /usr/bin/python3 lacks pandas or scikit-learn");
      return;
    }
    console.log("");
    console.log(
      `python (pandas read_csv ${sec(python.read_csv!)}, StandardScaler ${sec(python.fit_transform!)}, to_csv ${sec(python.to_csv!)})  ${sec(python.total!)}`,
    );
    console.log(`ratio mdps one call / python = ${(oneCall / python.total!).toFixed(3)}  (target <= 0.25)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
