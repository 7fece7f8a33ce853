/**
 * CPU time of one pass of each power column function (src/core/engine/power-columns.ts)
 * over 1,000,000 values, in this process (process.cpuUsage()), the median of the runs:
 * the forward transforms and their inverses at lambdas where the plain logs serve most
 * values (|λ·L| <= 1) and where the double-double log serves most (Box-Cox at λ = 2).
 * Never asserted in tests.
 *
 *   npm run build --silent && node dist/bench/power-columns.js [--rows 1000000] [--runs 9]
 */
import { parseArgs } from "node:util";
import {
  boxCoxColumn,
  boxCoxInverseColumn,
  yeoJohnsonColumn,
  yeoJohnsonInverseColumn,
} from "../src/core/engine/power-columns.js";
import { makeData } from "./engine-data.js";
import { median } from "./timing.js";

const { values: options } = parseArgs({
  options: { rows: { type: "string", default: "1000000" }, runs: { type: "string", default: "9" } },
});
const ROWS = Number(options.rows);
const RUNS = Number(options.runs);

type Column = (col: Float64Array, lambda: number, out: Float64Array) => Float64Array;

const cpuMs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

// makeData's column 0 is 3·N(0, 1) + 1 and column 1 exp(N(0, 1)).
const data = makeData(ROWS, 2, 7).finite;
const normal = data[0]!.map((x) => (x - 1) / 3);
const lognormal = data[1]!;
const out = new Float64Array(ROWS);

const forward: [string, Column, Float64Array, number][] = [
  ["Yeo-Johnson, lognormal, λ = -0.83", yeoJohnsonColumn, lognormal, -0.83],
  ["Yeo-Johnson, normal, λ = 0.97", yeoJohnsonColumn, normal, 0.97],
  ["Box-Cox, lognormal, λ = 0.01", boxCoxColumn, lognormal, 0.01],
  ["Box-Cox, lognormal, λ = 0.5", boxCoxColumn, lognormal, 0.5],
  ["Box-Cox, lognormal, λ = 2", boxCoxColumn, lognormal, 2],
];
const inverses: [string, Column, Column, Float64Array, number][] = [
  ["inverse Yeo-Johnson, lognormal, λ = -0.83", yeoJohnsonColumn, yeoJohnsonInverseColumn, lognormal, -0.83],
  ["inverse Yeo-Johnson, normal, λ = 0.97", yeoJohnsonColumn, yeoJohnsonInverseColumn, normal, 0.97],
  ["inverse Box-Cox, lognormal, λ = 0.5", boxCoxColumn, boxCoxInverseColumn, lognormal, 0.5],
];
const rows: [string, Column, Float64Array, number][] = [
  ...forward,
  ...inverses.map(([what, to, back, col, lambda]): [string, Column, Float64Array, number] => [
    what,
    back,
    to(col, lambda, new Float64Array(ROWS)),
    lambda,
  ]),
];

console.log(`CPU time of one pass over ${ROWS.toLocaleString("en-US")} values, the median of ${RUNS} runs\n`);
console.log("| pass | CPU |\n|---|---|");
for (const [what, fn, col, lambda] of rows) {
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const start = cpuMs();
    fn(col, lambda, out);
    times.push(cpuMs() - start);
  }
  console.log(`| ${what} | ${median(times).toFixed(1)} ms |`);
}
