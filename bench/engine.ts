/**
 * Engine benchmark: each transform's fitTransform on 1,000,000 x 10 and 100,000 x 50
 * float64 (seeded, ~1% NaN; NaN-free for Normalizer and Binarizer), against
 * scikit-learn's fit_transform on the same data, timed right after ours.
 *
 *   npm run build && node dist/bench/engine.js [--only=StandardScaler,RobustScaler] [--sizes=1000000x10]
 *
 * Both sides get one untimed run at full size first (so the JIT, the allocator and the
 * page cache are warm on both), then timed runs in alternating rounds (a round of ours,
 * a round of scikit-learn's, and again), so a slow spell of the machine falls on both
 * sides rather than on one; the table shows the best and
 * the median of each side and their ratios (ours / scikit-learn), in wall-clock time, and
 * the ratio of the best process CPU times (the steadier one when other work shares the
 * machine). The first row, "copy", is no transform: a bare copy of the data into new
 * memory on each side (Float64Array.set into fresh columns, numpy's X.copy()), the floor
 * for any transform that returns new columns. Never asserted in tests.
 */
import { parseArgs } from "node:util";
import type { PreprocessingType } from "../src/core/contract/transform-types.js";
import { fitTransform } from "../src/core/engine/index.js";
import { mapColumns } from "../src/core/engine/column-alloc.js";
import { makeData, type BenchData } from "./engine-data.js";
import { SklearnTimer, sklearnAvailable } from "./engine-sklearn.js";
import { append, best, emptyTimings, fmt, median, timeRuns, type Timings } from "./timing.js";

interface Entry {
  type: PreprocessingType | "copy";
  params: Record<string, unknown>;
  /** Ratio ours / scikit-learn the issue asks for (best of the repeats, wall clock). */
  target: number | undefined;
  /** Timed runs per round, on each side. */
  repeats: number;
  rounds: number;
  warmup: boolean;
}

// random_state fixes QuantileTransformer's subsample on both sides (1e6 rows > 10,000).
// PowerTransformer takes ~10 s a run on each side and is compute-bound: one run, no warm-up.
const ENTRIES: Entry[] = [
  { type: "copy", params: {}, target: undefined, repeats: 5, rounds: 3, warmup: true },
  { type: "Binarizer", params: {}, target: 0.5, repeats: 5, rounds: 3, warmup: true },
  { type: "MaxAbsScaler", params: {}, target: 0.5, repeats: 5, rounds: 3, warmup: true },
  { type: "MinMaxScaler", params: {}, target: 0.5, repeats: 5, rounds: 3, warmup: true },
  { type: "Normalizer", params: {}, target: 0.5, repeats: 5, rounds: 3, warmup: true },
  { type: "RobustScaler", params: {}, target: 0.5, repeats: 3, rounds: 2, warmup: true },
  { type: "StandardScaler", params: {}, target: 0.5, repeats: 5, rounds: 3, warmup: true },
  { type: "QuantileTransformer", params: { random_state: 0 }, target: 1.0, repeats: 3, rounds: 1, warmup: true },
  { type: "PowerTransformer", params: {}, target: 1.0, repeats: 1, rounds: 1, warmup: false },
];

function runOurs(data: BenchData, entry: Entry): void {
  if (entry.type === "copy") {
    mapColumns(data.columns, (col, _, out) => {
      out.set(col);
      return out;
    });
    return;
  }
  const columns = entry.type === "Normalizer" || entry.type === "Binarizer" ? data.finite : data.columns;
  fitTransform(entry.type, entry.params, { names: data.names, columns });
}

function row(e: Entry, size: string, ours: Timings, theirs: Timings | undefined): string {
  const ratio = theirs && best(ours.wall) / best(theirs.wall);
  const medianRatio = theirs && median(ours.wall) / median(theirs.wall);
  const cpuRatio = theirs && best(ours.cpu) / best(theirs.cpu);
  const verdict = e.target === undefined ? "(floor)" : ratio === undefined ? "" : ratio <= e.target ? "ok" : "MISSED";
  return [
    e.type.padEnd(20),
    size.padEnd(11),
    fmt(best(ours.wall)).padStart(6),
    fmt(median(ours.wall)).padStart(7),
    fmt(theirs && best(theirs.wall)).padStart(8),
    fmt(theirs && median(theirs.wall)).padStart(8),
    fmt(ratio, 2).padStart(6),
    fmt(medianRatio, 2).padStart(7),
    fmt(cpuRatio, 2).padStart(6),
    e.target === undefined ? `  ${verdict}` : `  <= ${e.target.toFixed(1)} ${verdict}`,
  ].join(" ");
}

async function main(): Promise<void> {
  const { values: options } = parseArgs({
    options: { only: { type: "string" }, sizes: { type: "string", default: "1000000x10,100000x50" } },
  });
  const only = options.only?.split(",");
  const entries = ENTRIES.filter((e) => !only || e.type === "copy" || only.includes(e.type));
  const sizes = options.sizes.split(",").map((size) => {
    const [rows, cols] = size.split("x").map(Number);
    if (!rows || !cols) throw new Error(`--sizes takes ROWSxCOLS[,ROWSxCOLS...], not "${size}"`);
    return [rows, cols] as const;
  });
  const withSklearn = sklearnAvailable();
  // Compile every transform on small data first, so no timed or warm-up run pays for it.
  const warm = makeData(20_000, 4, 7);
  for (const e of entries) await timeRuns(() => runOurs(warm, e), 2, false);

  console.log(`node ${process.version}; scikit-learn: ${withSklearn ? "yes" : "not available (/usr/bin/python3)"}`);
  console.log("seconds; best and median of all timed runs after one untimed run; ratio = ours / scikit-learn");
  console.log("                                   ours            scikit-learn     ratio of       cpu");
  console.log("transform            size         best  median     best   median   best  median  best   target");
  for (const [rows, cols] of sizes) {
    const data = makeData(rows, cols);
    const sklearn = withSklearn ? await SklearnTimer.start(data) : undefined;
    try {
      for (const e of entries) {
        const ours = emptyTimings();
        const theirs = sklearn && emptyTimings();
        for (let round = 0; round < e.rounds; round++) {
          const warmup = e.warmup && round === 0;
          append(ours, await timeRuns(() => runOurs(data, e), e.repeats, warmup));
          if (sklearn && theirs) append(theirs, await sklearn.time(e.type, e.params, e.repeats, warmup));
        }
        console.log(row(e, `${rows}x${cols}`, ours, theirs));
      }
    } finally {
      sklearn?.close();
    }
  }
}

await main();
