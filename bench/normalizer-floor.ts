/**
 * Why Normalizer misses its 0.5 target: its floor, measured. On the engine benchmark's
 * data, the least any Normalizer returning new columns must do is read the data once and
 * write it once into new memory. This times, in one run and the same way (one untimed
 * run, then alternating rounds, best and median):
 *
 * - ours: the engine's Normalizer; a bare read (a sum over every column, four
 *   accumulators); a bare copy into new columns (`Float64Array.set`); read + copy, the
 *   floor of a JavaScript Normalizer;
 * - C: the same two-pass algorithm in C (bench/normalizer-floor.c, gcc -O3
 *   -march=native, a fresh malloc'd output per call), when gcc is on the machine;
 * - scikit-learn: `Normalizer().fit_transform`, numpy's `X.sum()` and `X.copy()`.
 *
 *   npm run build && node dist/bench/normalizer-floor.js [--sizes=1000000x10,100000x50]
 */
import { parseArgs } from "node:util";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { fitTransform } from "../src/engine/index.js";
import { allocColumn } from "../src/engine/column-alloc.js";
import { makeData, type BenchData } from "./engine-data.js";
import { SklearnTimer, sklearnAvailable } from "./engine-sklearn.js";
import { append, best, emptyTimings, fmt, median, timeRuns, type Timings } from "./timing.js";

const ROUNDS = 3;
const REPEATS = 5;

function sumColumns(columns: readonly Float64Array[]): number {
  let total = 0;
  for (const col of columns) {
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let i = 0;
    for (; i + 3 < col.length; i += 4) {
      s0 += col[i];
      s1 += col[i + 1];
      s2 += col[i + 2];
      s3 += col[i + 3];
    }
    for (; i < col.length; i++) s0 += col[i];
    total += s0 + s1 + s2 + s3;
  }
  return total;
}

function copyColumns(columns: readonly Float64Array[]): Float64Array[] {
  return columns.map((col) => {
    const out = allocColumn(col.length);
    out.set(col);
    return out;
  });
}

/** The C program built once into a temp dir, or the reason it is not there. */
function buildC(dir: string): { binary: string } | { missing: string } {
  const source = fileURLToPath(new URL("../../bench/normalizer-floor.c", import.meta.url));
  const binary = join(dir, "normalizer-floor");
  const cc = spawnSync("gcc", ["-O3", "-march=native", "-o", binary, source, "-lm"], { encoding: "utf8" });
  if (cc.error) return { missing: "gcc not found" };
  return cc.status === 0 ? { binary } : { missing: `gcc failed: ${cc.stderr.trim().split("\n")[0]}` };
}

function timeC(binary: string, data: BenchData): Timings {
  const run = spawnSync(binary, [String(data.rows), String(data.cols), String(ROUNDS * REPEATS)], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`normalizer-floor (C) failed: ${run.stderr}`);
  const wall = JSON.parse(run.stdout) as number[];
  // Wall clock only (the C program times itself); cpu is never read for this row.
  return { wall, cpu: [] };
}

async function main(): Promise<void> {
  const { values: options } = parseArgs({ options: { sizes: { type: "string", default: "1000000x10,100000x50" } } });
  const sizes = options.sizes.split(",").map((s) => s.split("x").map(Number));
  const dir = mkdtempSync(join(tmpdir(), "mdps-floor-"));
  const c = buildC(dir);
  const withSklearn = sklearnAvailable();
  console.log(`node ${process.version}; C: ${"binary" in c ? "gcc -O3 -march=native" : c.missing}; scikit-learn: ${withSklearn ? "yes" : "no"}`);
  console.log("seconds, best / median of every timed run; ratio = best / scikit-learn Normalizer's best");
  try {
    for (const [rows, cols] of sizes) {
      const data = makeData(rows, cols);
      const features = { names: data.names, columns: data.finite };
      const ours = {
        normalizer: () => fitTransform("Normalizer", {}, features),
        read: () => sumColumns(data.finite),
        copy: () => copyColumns(data.finite),
      };
      const times = { normalizer: emptyTimings(), read: emptyTimings(), copy: emptyTimings() };
      const theirs = { Normalizer: emptyTimings(), read: emptyTimings(), copy: emptyTimings() };
      const sklearn = withSklearn ? await SklearnTimer.start(data) : undefined;
      try {
        for (let round = 0; round < ROUNDS; round++) {
          for (const key of ["normalizer", "read", "copy"] as const) {
            append(times[key], await timeRuns(ours[key], REPEATS, round === 0));
          }
          for (const name of ["Normalizer", "read", "copy"] as const) {
            if (sklearn) append(theirs[name], await sklearn.time(name, {}, REPEATS, round === 0));
          }
        }
      } finally {
        sklearn?.close();
      }
      const floor = best(times.read.wall) + best(times.copy.wall);
      const reference = withSklearn ? best(theirs.Normalizer.wall) : undefined;
      const line = (what: string, t: Timings | number | undefined) => {
        if (t === undefined) return `${what.padEnd(44)} -`;
        const b = typeof t === "number" ? t : best(t.wall);
        const m = typeof t === "number" ? "" : ` / ${fmt(median(t.wall))}`;
        const ratio = reference === undefined ? "" : `   ratio ${fmt(b / reference, 2)}`;
        return `${what.padEnd(44)} ${fmt(b)}${m}${ratio}`;
      };
      console.log(`\n${rows}x${cols}`);
      console.log(line("ours: Normalizer", times.normalizer));
      console.log(line("ours: bare read", times.read));
      console.log(line("ours: bare copy into new columns", times.copy));
      console.log(line("ours: read + copy (floor of a JS Normalizer)", floor));
      console.log(line("C: the same Normalizer, fresh output", "binary" in c ? timeC(c.binary, data) : undefined));
      console.log(line("scikit-learn: Normalizer().fit_transform", withSklearn ? theirs.Normalizer : undefined));
      console.log(line("numpy: X.sum()", withSklearn ? theirs.read : undefined));
      console.log(line("numpy: X.copy()", withSklearn ? theirs.copy : undefined));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
