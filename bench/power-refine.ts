/**
 * What refining PowerTransformer's lambda costs on big columns (Yeo-Johnson and Box-Cox):
 * scikit-learn's search (scipy's bracket and Brent on the objective, one WebAssembly pass
 * over the column per evaluation) against the refinement to the root of the objective's
 * slope (src/core/engine/lambda-refine.ts: one compensated JavaScript pass per evaluation),
 * with how many passes each made, in CPU time of this process (process.cpuUsage()).
 * One seeded column per row: a skewed one (exp of a normal: lambda near 0) and a normal
 * one (lambda near 1). The best of the runs; never asserted in tests.
 *
 *   npm run build --silent && node dist/bench/power-refine.js [--rows 100000,1000000,10000000] [--runs 3]
 */
import { parseArgs } from "node:util";
import { brentMinimize } from "../src/core/engine/brent.js";
import { refineLambda } from "../src/core/engine/lambda-refine.js";
import { boxCoxObjective, yeoJohnsonObjective } from "../src/core/engine/power-functions.js";
import { boxCoxObjectiveSlope, yeoJohnsonObjectiveSlope } from "../src/core/engine/power-slope.js";
import { makeData } from "./engine-data.js";

const { values: options } = parseArgs({
  options: { rows: { type: "string", default: "100000,1000000,10000000" }, runs: { type: "string", default: "3" } },
});
const SIZES = options.rows.split(",").map(Number);
const RUNS = Number(options.runs);

const cpuMs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

/** `f` with a count of its calls. */
function counted(f: (x: number) => number): { f: (x: number) => number; calls: () => number } {
  let calls = 0;
  return {
    f: (x) => {
      calls++;
      return f(x);
    },
    calls: () => calls,
  };
}

interface Row {
  what: string;
  search: { ms: number; passes: number };
  refine: { ms: number; passes: number };
  lambda: number;
  refined: number;
}

function measure(method: "yeo-johnson" | "box-cox", shape: string, values: Float64Array): Row {
  let best: Row | undefined;
  for (let run = 0; run < RUNS; run++) {
    const objective = counted(method === "box-cox" ? boxCoxObjective(values) : yeoJohnsonObjective(values));
    const t0 = cpuMs();
    const lambda = brentMinimize(objective.f, -2, 2);
    const t1 = cpuMs();
    const slope = counted(method === "box-cox" ? boxCoxObjectiveSlope(values) : yeoJohnsonObjectiveSlope(values));
    const refined = refineLambda(slope.f, lambda);
    const t2 = cpuMs();
    const row: Row = {
      what: `${method}, ${shape}, ${values.length.toLocaleString("en-US")} rows`,
      search: { ms: t1 - t0, passes: objective.calls() },
      refine: { ms: t2 - t1, passes: slope.calls() },
      lambda,
      refined,
    };
    if (best === undefined || row.search.ms + row.refine.ms < best.search.ms + best.refine.ms) best = row;
  }
  return best!;
}

const rows: Row[] = [];
for (const size of SIZES) {
  const normal = makeData(size, 1, 7).finite[0]!;
  const skewed = normal.map((x) => Math.exp(x));
  rows.push(measure("yeo-johnson", "skewed", skewed));
  rows.push(measure("yeo-johnson", "normal", normal));
  rows.push(measure("box-cox", "skewed", skewed));
}

const ms = (x: number) => `${x.toFixed(x < 10 ? 1 : 0)} ms`;
console.log("CPU time of one column's lambda, best of", RUNS, "runs\n");
console.log("| column | search (passes) | refinement (passes) | refinement / search | lambda moved by |");
console.log("|---|---|---|---|---|");
for (const r of rows) {
  console.log(
    `| ${r.what} | ${ms(r.search.ms)} (${r.search.passes}) | ${ms(r.refine.ms)} (${r.refine.passes}) | ` +
      `${(r.refine.ms / r.search.ms).toFixed(2)} | ${Math.abs(r.refined - r.lambda).toExponential(1)} |`,
  );
}
