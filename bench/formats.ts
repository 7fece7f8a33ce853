/**
 * DataFrame <-> wire bytes: ours (Arrow IPC and CSV) against danfo's own toCSV and
 * readCSV on the same 1,000,000 x 10 float64 frame, in the same run; then the service's
 * path alone (readCsv / writeCsv, Arrow, JSON on the same Table).
 *
 *   npm run build && node dist/bench/formats.js [--rows 1000000] [--cols 10] [--no-danfo-read]
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readCSV, toCSV, type DataFrame } from "danfojs-node";
import { dataFrameFromTable, tableFromDataFrame } from "../src/formats/danfo.js";
import { readTable, writeTable, type Table, type TableRecordType } from "../src/formats/index.js";

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const ROWS = flag("--rows", 1_000_000);
const COLS = flag("--cols", 10);
const DANFO_READ = !args.includes("--no-danfo-read");

/** mulberry32: the same data every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sampleTable(): Table {
  const rand = prng(42);
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

async function time<T>(label: string, f: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await f();
  const ms = performance.now() - started;
  console.log(`  ${label.padEnd(46)} ${(ms / 1000).toFixed(2).padStart(7)} s`);
  return { ms, value };
}

const ratio = (baseline: number, ours: number) => `${(baseline / ours).toFixed(1)}x`;

async function main(): Promise<void> {
  console.log(`formats bench: ${ROWS.toLocaleString("en")} x ${COLS} float64 (0.1% NaN), node ${process.version}`);
  const df: DataFrame = dataFrameFromTable(sampleTable());

  console.log("DataFrame -> wire bytes");
  const outArrow = await time("ours: DataFrame -> Arrow IPC", async () => collect(writeTable("arrow", tableFromDataFrame(df))));
  const outCsv = await time("ours: DataFrame -> CSV", async () => collect(writeTable("csv", tableFromDataFrame(df))));
  const danfoOut = await time("danfo: toCSV(df)", () => toCSV(df) as string);
  console.log(`  sizes: Arrow ${(outArrow.value.length / 2 ** 20).toFixed(0)} MiB, CSV ${(outCsv.value.length / 2 ** 20).toFixed(0)} MiB`);

  console.log("wire bytes -> DataFrame");
  const inArrow = await time("ours: Arrow IPC -> DataFrame", async () => dataFrameFromTable(await readTable("arrow", outArrow.value)));
  const inCsv = await time("ours: CSV -> DataFrame", async () => dataFrameFromTable(await readTable("csv", outCsv.value)));
  check(df, inArrow.value, "arrow");
  check(df, inCsv.value, "csv");
  let danfoIn: number | undefined;
  if (DANFO_READ) {
    const dir = mkdtempSync(join(tmpdir(), "mdps-bench-"));
    try {
      const path = join(dir, "frame.csv");
      writeFileSync(path, danfoOut.value);
      danfoIn = (await time("danfo: readCSV(file)", () => readCSV(path))).ms;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  console.log("ratios (danfo time / ours; target >= 3x out, >= 10x in)");
  console.log(`  out: Arrow ${ratio(danfoOut.ms, outArrow.ms)}, CSV ${ratio(danfoOut.ms, outCsv.ms)}`);
  if (danfoIn !== undefined) console.log(`  in:  Arrow ${ratio(danfoIn, inArrow.ms)}, CSV ${ratio(danfoIn, inCsv.ms)}`);

  console.log("service path (Table <-> bytes, no DataFrame)");
  const table = tableFromDataFrame(df);
  const names = table.columns.map((c) => c.name);
  for (const type of ["csv", "arrow", "json"] as TableRecordType[]) {
    const bytes = (await time(`write${type === "csv" ? "Csv" : type === "json" ? "Json" : "Arrow"}`, async () => collect(writeTable(type, table)))).value;
    if (type === "arrow") await time("readArrow", () => readTable(type, bytes));
    else {
      await time(`read${type === "csv" ? "Csv" : "Json"} (numericColumns auto)`, () => readTable(type, bytes));
      await time(`read${type === "csv" ? "Csv" : "Json"} (numericColumns listed)`, () => readTable(type, bytes, { numericColumns: names }));
    }
  }
  console.log(`  peak rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`);
}

/** The frames must be equal bit for bit (NaN where NaN), or the timing means nothing. */
function check(expected: DataFrame, actual: DataFrame, label: string): void {
  const a = tableFromDataFrame(expected);
  const b = tableFromDataFrame(actual);
  a.columns.forEach((column, k) => {
    const x = column.values as Float64Array;
    const y = b.columns[k]?.values as Float64Array;
    for (let i = 0; i < x.length; i++) {
      if (!Object.is(x[i], y[i])) throw new Error(`${label}: column ${column.name} row ${i} differs: ${x[i]} vs ${y[i]}`);
    }
  });
}

await main();
