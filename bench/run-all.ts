/**
 * Runs every benchmark in turn, each in its own process so one's heap and JIT state
 * do not colour the next: `npm run bench`. Each one documents its own flags; run it alone to use them.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const BENCHMARKS = ["small-jobs.js", "engine.js", "formats.js", "e2e.js"];

let failed = 0;
for (const name of BENCHMARKS) {
  const script = fileURLToPath(new URL(`./${name}`, import.meta.url));
  process.stdout.write(`\n=== bench/${name.replace(/\.js$/, ".ts")}\n`);
  const run = spawnSync(process.execPath, ["--expose-gc", script], { stdio: "inherit" });
  if (run.status !== 0) {
    failed++;
    process.stderr.write(`bench/${name} exited with ${run.status ?? run.signal}\n`);
  }
}
process.exitCode = failed === 0 ? 0 : 1;
