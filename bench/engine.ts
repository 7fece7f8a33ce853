/**
 * Engine benchmark: each transform's fitTransform on 1,000,000 x 10 and 100,000 x 50
 * float64 (seeded, ~1% NaN; NaN-free for Normalizer and Binarizer), against
 * scikit-learn's fit_transform on the same data, timed right after ours.
 *
 *   npm run build && node dist/bench/engine.js [--only=StandardScaler,RobustScaler] [--sizes=1000000x10]
 *
 * Prints one row per transform and size with ours / scikit-learn, in wall-clock time and
 * in process CPU time (the steadier one when other work shares the machine). Never
 * asserted in tests.
 */
import type { PreprocessingType } from "../src/contract/transform-types.js";
import { fitTransform } from "../src/engine/index.js";
import { makeData, type BenchData } from "./engine-data.js";
import { SklearnTimer, sklearnAvailable, type Timing } from "./engine-sklearn.js";

interface Entry {
  type: PreprocessingType;
  params: Record<string, unknown>;
  target: number;
  repeats: number;
}

// random_state fixes QuantileTransformer's subsample on both sides (1e6 rows > 10,000).
const ENTRIES: Entry[] = [
  { type: "Binarizer", params: {}, target: 0.5, repeats: 5 },
  { type: "MaxAbsScaler", params: {}, target: 0.5, repeats: 5 },
  { type: "MinMaxScaler", params: {}, target: 0.5, repeats: 5 },
  { type: "Normalizer", params: {}, target: 0.5, repeats: 5 },
  { type: "RobustScaler", params: {}, target: 0.5, repeats: 3 },
  { type: "StandardScaler", params: {}, target: 0.5, repeats: 5 },
  { type: "QuantileTransformer", params: { random_state: 0 }, target: 1.0, repeats: 2 },
  { type: "PowerTransformer", params: {}, target: 1.0, repeats: 1 },
];

function option(name: string): string | undefined {
  const prefix = `--${name}=`;
  return process.argv.find((a) => a.startsWith(prefix))?.slice(prefix.length);
}

function timeOurs(data: BenchData, entry: Entry): Timing {
  const features = {
    names: data.names,
    columns: entry.type === "Normalizer" || entry.type === "Binarizer" ? data.finite : data.columns,
  };
  const best = { wall: Infinity, cpu: Infinity };
  for (let r = 0; r < entry.repeats; r++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    fitTransform(entry.type, entry.params, features);
    const t1 = performance.now();
    const c1 = process.cpuUsage(c0);
    best.wall = Math.min(best.wall, (t1 - t0) / 1000);
    best.cpu = Math.min(best.cpu, (c1.user + c1.system) / 1e6);
  }
  return best;
}

const fmt = (x: number | undefined, digits = 3) => (x === undefined ? "-" : x.toFixed(digits));

async function main(): Promise<void> {
  const only = option("only")?.split(",");
  const entries = ENTRIES.filter((e) => !only || only.includes(e.type));
  const sizes = (option("sizes") ?? "1000000x10,100000x50").split(",").map((s) => s.split("x").map(Number));
  const withSklearn = sklearnAvailable();
  // Warm the JIT on small data so the first timed transform is not charged for compiling.
  const warm = makeData(20_000, 4, 7);
  for (const e of entries) timeOurs(warm, { ...e, repeats: 2 });

  console.log(`node ${process.version}; scikit-learn: ${withSklearn ? "yes" : "not available (/usr/bin/python3)"}`);
  console.log("best of the repeats; ratio = ours / scikit-learn");
  console.log("transform            size           ours wall  sklearn wall  ratio   ours cpu  sklearn cpu  ratio  target");
  for (const [rows, cols] of sizes) {
    const data = makeData(rows, cols);
    const sklearn = withSklearn ? await SklearnTimer.start(data) : undefined;
    try {
      for (const e of entries) {
        const ours = timeOurs(data, e);
        const theirs = await sklearn?.time(e.type, e.params, e.repeats);
        const ratio = theirs && ours.wall / theirs.wall;
        const cpuRatio = theirs && ours.cpu / theirs.cpu;
        const verdict = ratio === undefined ? "" : ratio <= e.target ? "ok" : "MISSED";
        console.log(
          [
            e.type.padEnd(20),
            `${rows}x${cols}`.padEnd(14),
            fmt(ours.wall).padStart(9),
            fmt(theirs?.wall).padStart(12),
            fmt(ratio, 2).padStart(6),
            fmt(ours.cpu).padStart(9),
            fmt(theirs?.cpu).padStart(11),
            fmt(cpuRatio, 2).padStart(6),
            ` <= ${e.target.toFixed(1)} ${verdict}`,
          ].join(" "),
        );
      }
    } finally {
      sklearn?.close();
    }
  }
}

await main();
