/**
 * DataFrame <-> wire bytes: ours (Arrow IPC and CSV) against danfo's own toCSV and
 * readCSV on the same 1,000,000 x 10 float64 frame, in the same run; then the service's
 * path alone (readCsv / writeCsv, Arrow, Parquet, JSON on the same Table), and the
 * round trip (write + read) of Parquet against Arrow and CSV.
 *
 *   npm run build && node dist/bench/formats.js [--rows 1000000] [--cols 10] [--no-danfo-read]
 */
import { parseArgs } from "node:util";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { toCSV, type DataFrame } from "danfojs-node";
import { dataFrameFromTable, tableFromDataFrame } from "../src/core/formats/danfo.js";
import { formatOf, readTable, writeTable, type Table, type TableRecordType } from "../src/core/formats/index.js";
import { seededRandom } from "../src/core/sample-data/seeded-random.js";

const { values: options } = parseArgs({
  options: {
    rows: { type: "string", default: "1000000" },
    cols: { type: "string", default: "10" },
    "no-danfo-read": { type: "boolean", default: false },
  },
});
const ROWS = Number(options.rows);
const COLS = Number(options.cols);
const DANFO_READ = !options["no-danfo-read"];

function sampleTable(): Table {
  const rand = seededRandom(42);
  const columns = Array.from({ length: COLS }, (_, c) => {
    const values = new Float64Array(ROWS);
    const scale = 10 ** (c - 3);
    for (let i = 0; i < ROWS; i++) values[i] = rand() < 0.001 ? NaN : (rand() - 0.3) * scale;
    return { name: `f${c}`, kind: "number" as const, values };
  });
  return { columns, rowCount: ROWS };
}

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const c of chunks) parts.push(c);
  return Buffer.concat(parts);
}

/** Wall-clock and process CPU time (user + system, all threads): CPU time moves less when other work shares the cores. */
async function time<T>(label: string, f: () => Promise<T> | T): Promise<{ ms: number; cpuMs: number; value: T }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = await f();
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  console.log(
    `  ${label.padEnd(46)} ${(ms / 1000).toFixed(2).padStart(7)} s wall ${(cpuMs / 1000).toFixed(2).padStart(7)} s cpu`,
  );
  return { ms, cpuMs, value };
}

type Timed = { ms: number; cpuMs: number };
const ratio = (baseline: Timed, ours: Timed) =>
  `${(baseline.ms / ours.ms).toFixed(1)}x wall, ${(baseline.cpuMs / ours.cpuMs).toFixed(1)}x cpu`;

async function main(): Promise<void> {
  console.log(`formats bench: ${ROWS.toLocaleString("en")} x ${COLS} float64 (0.1% NaN), node ${process.version}`);
  // Each result is dropped before the next step, so no step pays for the garbage
  // collector tracing an earlier step's frames (danfo's readCSV slows down tenfold near
  // the heap limit).
  const df: DataFrame = dataFrameFromTable(sampleTable());
  const dir = mkdtempSync(join(tmpdir(), "mdps-bench-"));
  try {
    console.log("DataFrame -> wire bytes");
    const outArrow = await time("ours: DataFrame -> Arrow IPC", async () =>
      collect(writeTable("arrow", tableFromDataFrame(df))),
    );
    const outCsv = await time("ours: DataFrame -> CSV", async () => collect(writeTable("csv", tableFromDataFrame(df))));
    const danfoOut = await time("danfo: toCSV(df)", () => toCSV(df) as string);
    console.log(
      `  sizes: Arrow ${(outArrow.value.length / 2 ** 20).toFixed(0)} MiB, CSV ${(outCsv.value.length / 2 ** 20).toFixed(0)} MiB`,
    );
    const csvPath = join(dir, "frame.csv");
    writeFileSync(csvPath, danfoOut.value);
    danfoOut.value = "";

    console.log("wire bytes -> DataFrame");
    const inArrow = await time("ours: Arrow IPC -> DataFrame", async () =>
      dataFrameFromTable(await readTable("arrow", outArrow.value)),
    );
    check(df, inArrow.value, "arrow");
    inArrow.value = df;
    const inCsv = await time("ours: CSV -> DataFrame", async () =>
      dataFrameFromTable(await readTable("csv", outCsv.value)),
    );
    check(df, inCsv.value, "csv");
    inCsv.value = df;
    outArrow.value = Buffer.alloc(0);
    outCsv.value = Buffer.alloc(0);
    const danfoIn = DANFO_READ ? danfoReadCsvFresh(csvPath) : undefined;

    console.log("ratios (danfo / ours; target >= 3x out, >= 10x in)");
    console.log(`  out: Arrow ${ratio(danfoOut, outArrow)}; CSV ${ratio(danfoOut, outCsv)}`);
    if (danfoIn !== undefined) console.log(`  in:  Arrow ${ratio(danfoIn, inArrow)}; CSV ${ratio(danfoIn, inCsv)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  console.log("service path (Table <-> bytes, no DataFrame)");
  const table = tableFromDataFrame(df);
  const names = table.columns.map((c) => c.name);
  const roundTrips: Array<{ type: TableRecordType; write: Timed; read: Timed; bytes: number }> = [];
  for (const type of ["csv", "arrow", "parquet", "json"] as TableRecordType[]) {
    const { label } = formatOf(type);
    const name = label.charAt(0) + label.slice(1).toLowerCase();
    const written = await time(`write${name}`, async () => collect(writeTable(type, table)));
    const bytes = written.value;
    if (type === "arrow" || type === "parquet") {
      const read = await time(`read${name}`, () => readTable(type, bytes));
      sameTable(table, read.value, type);
      roundTrips.push({ type, write: written, read, bytes: bytes.length });
      continue;
    }
    const auto = await time(`read${name} (numericColumns auto)`, () => readTable(type, bytes));
    sameTable(table, auto.value, type);
    if (type === "csv") roundTrips.push({ type, write: written, read: auto, bytes: bytes.length });
    await time(`read${name} (numericColumns listed)`, () => readTable(type, bytes, { numericColumns: names }));
  }
  console.log(`round trip (write + read, ${ROWS.toLocaleString("en")} x ${COLS}), each checked bit for bit`);
  for (const { type, write, read, bytes } of roundTrips) {
    console.log(
      `  ${type.padEnd(8)} ${((write.ms + read.ms) / 1000).toFixed(2).padStart(7)} s wall ` +
        `${((write.cpuMs + read.cpuMs) / 1000).toFixed(2).padStart(7)} s cpu ` +
        `(write ${(write.cpuMs / 1000).toFixed(2)} s, read ${(read.cpuMs / 1000).toFixed(2)} s cpu), ` +
        `${(bytes / 2 ** 20).toFixed(0)} MiB`,
    );
  }
  console.log(`  peak rss ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
}

/**
 * danfo's readCSV in a fresh Node process: in this one, with a million-row frame and
 * its copies on the heap, the garbage collector slows readCSV down from about 22 s to
 * many minutes, which would flatter our ratio.
 */
function danfoReadCsvFresh(csvPath: string): Timed {
  const danfo = createRequire(import.meta.url).resolve("danfojs-node");
  const script = `
    const { readCSV } = require(process.argv[1]);
    const cpu = process.cpuUsage();
    const started = performance.now();
    readCSV(process.argv[2]).then((df) => {
      const ms = performance.now() - started;
      const used = process.cpuUsage(cpu);
      if (df.shape[0] === 0) throw new Error("empty frame");
      console.log(JSON.stringify({ ms, cpuMs: (used.user + used.system) / 1000 }));
    });`;
  const child = spawnSync(process.execPath, ["-e", script, danfo, csvPath], { encoding: "utf8", maxBuffer: 1 << 20 });
  if (child.status !== 0) throw new Error(`danfo readCSV failed: ${child.stderr}`);
  const timed = JSON.parse(child.stdout.trim().split("\n").pop() as string) as Timed;
  console.log(
    `  ${"danfo: readCSV(file), fresh process".padEnd(46)} ${(timed.ms / 1000).toFixed(2).padStart(7)} s wall ${(timed.cpuMs / 1000).toFixed(2).padStart(7)} s cpu`,
  );
  return timed;
}

/** A table read back must equal the one written, bit for bit (NaN where NaN), or the timing means nothing. */
function sameTable(expected: Table, actual: Table, label: string): void {
  expected.columns.forEach((column, k) => {
    const x = column.values as Float64Array;
    const y = actual.columns[k]?.values as Float64Array | undefined;
    for (let i = 0; i < x.length; i++) {
      if (!Object.is(x[i], y?.[i]))
        throw new Error(`${label}: column ${column.name} row ${i} differs: ${x[i]} vs ${y?.[i]}`);
    }
  });
}

/** The frames must be equal bit for bit (NaN where NaN), or the timing means nothing. */
function check(expected: DataFrame, actual: DataFrame, label: string): void {
  const a = tableFromDataFrame(expected);
  const b = tableFromDataFrame(actual);
  a.columns.forEach((column, k) => {
    const x = column.values as Float64Array;
    const y = b.columns[k]?.values as Float64Array;
    for (let i = 0; i < x.length; i++) {
      if (!Object.is(x[i], y[i]))
        throw new Error(`${label}: column ${column.name} row ${i} differs: ${x[i]} vs ${y[i]}`);
    }
  });
}

await main();
