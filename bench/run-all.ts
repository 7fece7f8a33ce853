/**
 * Runs every benchmark in turn, each in its own process so one's heap and JIT state
 * do not colour the next: `npm run bench`; `npm run bench -- --cpu` runs only the CPU-time
 * rows (bench/cpu.ts). Each one documents its own flags; run it alone
 * to use them. At the end, the rows of the summary table each one reported, with their
 * baselines from the same run.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { summaryTable } from "./summary.js";

const ALL = ["cpu.js", "small-jobs.js", "first-job.js", "e2e.js", "big-file.js", "engine.js", "formats.js"];
const BENCHMARKS = process.argv.includes("--cpu") ? ["cpu.js"] : ALL;

const dir = mkdtempSync(join(tmpdir(), "mdps-bench-"));
const summary = join(dir, "summary.jsonl");
let failed = 0;
try {
  for (const name of BENCHMARKS) {
    const script = fileURLToPath(new URL(`./${name}`, import.meta.url));
    process.stdout.write(`\n=== bench/${name.replace(/\.js$/, ".ts")}\n`);
    const run = spawnSync(process.execPath, ["--expose-gc", script], {
      stdio: "inherit",
      env: { ...process.env, MDPS_BENCH_SUMMARY: summary },
    });
    if (run.status !== 0) {
      failed++;
      process.stderr.write(`bench/${name} exited with ${run.status ?? run.signal}\n`);
    }
  }
  console.log("\n=== summary table\n");
  console.log(summaryTable(summary));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exitCode = failed === 0 ? 0 : 1;
