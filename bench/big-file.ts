/**
 * Data larger than a DataFrame can hold: a 20,000,000 x 10 float64 Arrow file ->
 * StandardScaler -> an Arrow file, through `session.preprocess(path)` and
 * `job.download(path)` on `Session.local()`, with no DataFrame on the way; and
 * `job.dataframe()` on it, which is refused with FrameTooLargeError before anything is
 * built (instead of the process dying with a heap out of memory). Baseline: pandas +
 * scikit-learn with the same data in memory.
 *
 *   npm run build && node dist/bench/big-file.js [--rows 20000000] [--cols 10] [--no-python]
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { FrameTooLargeError, Session } from "../src/index.js";
import { writeTable } from "../src/core/formats/index.js";
import type { Column } from "../src/core/formats/table.js";
import { writeFileAtomically } from "../src/session/table-io.js";
import { summaryRow } from "./summary.js";

const { values: options } = parseArgs({
  options: {
    rows: { type: "string", default: "20000000" },
    cols: { type: "string", default: "10" },
    "no-python": { type: "boolean", default: false },
  },
});
const ROWS = Number(options.rows);
const COLS = Number(options.cols);
const sec = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const gb = (bytes: number) => `${(bytes / 2 ** 30).toFixed(2)} GiB`;

function python(): { ms: number; rssMb: number } | undefined {
  if (options["no-python"]) return undefined;
  const script = `
import json, time, resource, numpy as np, pandas as pd
from sklearn.preprocessing import StandardScaler
df = pd.DataFrame(np.random.default_rng(3).random((${ROWS}, ${COLS})), columns=[f"f{i}" for i in range(${COLS})])
t0 = time.perf_counter()
out = pd.DataFrame(StandardScaler().fit_transform(df), columns=df.columns)
print(json.dumps({"ms": (time.perf_counter() - t0) * 1000, "rssMb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
`;
  const run = spawnSync("/usr/bin/python3", ["-c", script], { encoding: "utf8" });
  if (run.status !== 0) return undefined;
  return JSON.parse(run.stdout.trim().split("\n").pop()!) as { ms: number; rssMb: number };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "mdps-big-"));
  try {
    const size = `${ROWS.toLocaleString("en")} x ${COLS}`;
    console.log(`${size} float64 through files: preprocess(path) -> StandardScaler -> job.download(path)`);
    const input = join(dir, "input.arrow");
    {
      let seed = 3;
      const columns: Column[] = Array.from({ length: COLS }, (_, c) => {
        const values = new Float64Array(ROWS);
        for (let i = 0; i < ROWS; i++) {
          seed = (seed * 1103515245 + 12345) % 2147483648;
          values[i] = (seed / 2147483648) * 10 ** (c % 4);
        }
        return { name: `f${c}`, kind: "number", values };
      });
      await writeFileAtomically(input, writeTable("arrow", { columns, rowCount: ROWS }));
    }
    global.gc?.();
    const inputBytes = statSync(input).size;

    // 20M x 10 is 1.6 GB of Arrow: past the service's default 1 GiB blob limit, so raised here.
    const session = await Session.local({
      dataDir: join(dir, "data"),
      service: { maxBlobBytes: Math.max(2 ** 30, 2 * inputBytes) },
    });
    try {
      const t0 = performance.now();
      const job = await session.preprocess(input, { type: "StandardScaler" });
      const t1 = performance.now();
      const output = join(dir, "output.arrow");
      const file = await job.download(output);
      const t2 = performance.now();
      const record = job.record!;
      const runMs = Date.parse(record.finished_at!) - Date.parse(record.started_at!);
      let refused = "not refused";
      try {
        await job.dataframe();
      } catch (error) {
        if (!(error instanceof FrameTooLargeError)) throw error;
        refused = `FrameTooLargeError before download (${(error.estimatedBytes / 2 ** 30).toFixed(1)} GiB needed, ${(error.availableBytes / 2 ** 30).toFixed(1)} GiB of heap left)`;
      }
      const rss = process.resourceUsage().maxRSS * 1024;
      console.log("");
      console.log(
        `input ${gb(inputBytes)}, output ${gb(file.bytes)} (${file.copied ? "copied as it streamed" : "converted"})`,
      );
      console.log(`preprocess(path) (read and check the file, upload): ${sec(t1 - t0)}`);
      console.log(`job.download(path) (wait, download to the file): ${sec(t2 - t1)} (the service's run ${sec(runMs)})`);
      console.log(`total ${sec(t2 - t0)}, peak RSS of this process (client and service) ${gb(rss)}`);
      console.log(`job.dataframe(): ${refused}`);
      const py = python();
      if (py)
        console.log(`pandas + scikit-learn in memory: ${sec(py.ms)}, peak RSS ${(py.rssMb / 1024).toFixed(2)} GiB`);
      summaryRow({
        what: `${size} through a file (preprocess(path), job.download(path))`,
        mdps: `${sec(t2 - t0)} (upload ${sec(t1 - t0)}, run ${sec(runMs)}), peak RSS ${gb(rss)}; job.dataframe(): ${refused}`,
        baseline: py
          ? `pandas + scikit-learn in memory ${sec(py.ms)}, peak RSS ${(py.rssMb / 1024).toFixed(2)} GiB`
          : "-",
        target: "works through a file; a frame that would not fit is refused with a typed error",
      });
    } finally {
      await session.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
