/**
 * The first job of a new session, as a user starting a notebook or script meets it: a
 * new process imports mdps, opens `Session.local()` and sends one 1,000 x 10 DataFrame ->
 * StandardScaler -> DataFrame. Run three times in fresh processes: on a new data dir (the
 * application is created, a token exchanged), then twice on the same one (the token kept
 * by the first run is used). Baseline: a fresh /usr/bin/python3 importing pandas and
 * scikit-learn and doing the same in memory.
 *
 *   npm run build && node dist/bench/first-job.js [--runs 3] [--no-python]
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { summaryRow } from "./summary.js";

const { values: options } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    "no-python": { type: "boolean", default: false },
    /** Internal: be the fresh process, on this data dir. */
    child: { type: "string" },
  },
});

interface ChildTimes {
  importMs: number;
  localMs: number;
  firstJobMs: number;
  secondJobMs: number;
  tokenExchanges: number;
}

async function child(dataDir: string): Promise<void> {
  const t0 = performance.now();
  // The bundle, as a user's `import "mdps"` loads it.
  const bundle = new URL("../bundle/index.js", import.meta.url).href;
  const [{ Session }, { DataFrame }] = await Promise.all([
    import(bundle) as Promise<typeof import("../src/index.js")>,
    import("danfojs-node"),
  ]);
  const t1 = performance.now();
  const session = await Session.local({ dataDir });
  const t2 = performance.now();
  const data: Record<string, number[]> = {};
  for (let c = 0; c < 10; c++) data[`f${c}`] = Array.from({ length: 1000 }, (_, i) => ((i * (c + 7)) % 997) / 13);
  const df = new DataFrame(data);
  const t3 = performance.now();
  await (await session.preprocess(df, { type: "StandardScaler", columns: Object.keys(data) })).dataframe();
  const t4 = performance.now();
  await (await session.preprocess(df, { type: "StandardScaler", columns: Object.keys(data) })).dataframe();
  const t5 = performance.now();
  const times: ChildTimes = {
    importMs: t1 - t0,
    localMs: t2 - t1,
    firstJobMs: t4 - t3,
    secondJobMs: t5 - t4,
    tokenExchanges: session.client.tokens.refreshCount,
  };
  await session.close();
  console.log(JSON.stringify(times));
}

function python(): { importMs: number; firstMs: number } | undefined {
  if (options["no-python"]) return undefined;
  const script = `
import json, time
t0 = time.perf_counter()
import numpy as np, pandas as pd
from sklearn.preprocessing import StandardScaler
t1 = time.perf_counter()
df = pd.DataFrame(np.random.default_rng(7).random((1000, 10)), columns=[f"f{i}" for i in range(10)])
t2 = time.perf_counter()
out = pd.DataFrame(StandardScaler().fit_transform(df), columns=df.columns)
t3 = time.perf_counter()
print(json.dumps({"importMs": (t1 - t0) * 1000, "firstMs": (t3 - t2) * 1000}))
`;
  const run = spawnSync("/usr/bin/python3", ["-c", script], { encoding: "utf8" });
  if (run.status !== 0) return undefined;
  return JSON.parse(run.stdout.trim()) as { importMs: number; firstMs: number };
}

function main(): void {
  const dir = mkdtempSync(join(tmpdir(), "mdps-first-"));
  const ms = (x: number) => `${x.toFixed(0)} ms`;
  try {
    const runs: ChildTimes[] = [];
    for (let i = 0; i < Number(options.runs); i++) {
      const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--child", join(dir, "data")], {
        encoding: "utf8",
      });
      if (run.status !== 0) throw new Error(`run ${i + 1} failed: ${run.stderr}`);
      runs.push(JSON.parse(run.stdout.trim().split("\n").pop()!) as ChildTimes);
    }
    const py = python();
    console.log("first job of a new session: a fresh process, Session.local(), one 1,000 x 10 StandardScaler call");
    console.log("");
    console.log("| run | import mdps + danfo | Session.local() | first job | second job | token exchanges |");
    console.log("|---|---|---|---|---|---|");
    runs.forEach((r, i) =>
      console.log(
        `| ${i === 0 ? "new data dir" : `same data dir, run ${i + 1}`} | ${ms(r.importMs)} | ${ms(r.localMs)} | ${ms(r.firstJobMs)} | ${ms(r.secondJobMs)} | ${r.tokenExchanges} |`,
      ),
    );
    if (py)
      console.log(
        `| python, fresh process | ${ms(py.importMs)} (pandas, scikit-learn) | - | ${ms(py.firstMs)} | - | - |`,
      );
    const warm = runs.slice(1);
    const firstJobs = warm.map((r) => r.firstJobMs).sort((a, b) => a - b);
    summaryRow({
      what: "first job of a new session (fresh process, Session.local() on an existing data dir)",
      mdps:
        `first job ${firstJobs.map(ms).join(", ")}; Session.local() ${warm.map((r) => ms(r.localMs)).join(", ")}; ` +
        `new data dir: ${ms(runs[0]!.firstJobMs)} + Session.local() ${ms(runs[0]!.localMs)}`,
      baseline: py ? `fresh python: import ${ms(py.importMs)}, first call ${ms(py.firstMs)}` : "-",
      target: "first job <= 150 ms",
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (options.child !== undefined) await child(options.child);
else main();
