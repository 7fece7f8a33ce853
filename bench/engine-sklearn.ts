/**
 * Times scikit-learn's fit_transform on the benchmark data in the same run, when
 * /usr/bin/python3 has it. The data goes through a temp file of raw float64 (row-major);
 * only fit_transform is timed, best of `repeats`, like ours, in wall-clock and CPU time.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { rowMajor, type BenchData } from "./engine-data.js";

const PYTHON = "/usr/bin/python3";

const SCRIPT = String.raw`
import json, sys, time
import numpy as np
import sklearn
from sklearn import preprocessing as pp
path, clean_path, rows, cols = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
plan = json.loads(sys.argv[5])
X = np.fromfile(path, dtype=np.float64).reshape(rows, cols)
Xc = np.fromfile(clean_path, dtype=np.float64).reshape(rows, cols)
out = {"version": sklearn.__version__, "seconds": {}, "cpu": {}}
for name, params, repeats in plan:
    data = Xc if name in ("Normalizer", "Binarizer") else X
    best, best_cpu = float("inf"), float("inf")
    for _ in range(repeats):
        model = getattr(pp, name)(**params)
        t0, c0 = time.perf_counter(), time.process_time()
        model.fit_transform(data)
        best = min(best, time.perf_counter() - t0)
        best_cpu = min(best_cpu, time.process_time() - c0)
    out["seconds"][name] = best
    out["cpu"][name] = best_cpu
print(json.dumps(out))
`;

export interface SklearnTimes {
  version: string;
  /** Best wall-clock time per transform. */
  seconds: Record<string, number>;
  /** Best process CPU time per transform (less disturbed by other load on the machine). */
  cpu: Record<string, number>;
}

export type Plan = [name: string, params: Record<string, unknown>, repeats: number][];

export function sklearnAvailable(): boolean {
  const probe = spawnSync(PYTHON, ["-c", "import sklearn"], { stdio: "ignore" });
  return probe.status === 0;
}

export function timeSklearn(data: BenchData, plan: Plan): SklearnTimes {
  const dir = mkdtempSync(join(tmpdir(), "mdps-bench-"));
  try {
    const path = join(dir, "x.f64");
    const cleanPath = join(dir, "x-clean.f64");
    writeFileSync(path, rowMajor(data.columns));
    writeFileSync(cleanPath, rowMajor(data.finite));
    const result = spawnSync(
      PYTHON,
      ["-c", SCRIPT, path, cleanPath, String(data.rows), String(data.cols), JSON.stringify(plan)],
      { encoding: "utf8", maxBuffer: 1 << 20 },
    );
    if (result.status !== 0) throw new Error(`scikit-learn benchmark failed:\n${result.stderr}`);
    return JSON.parse(result.stdout) as SklearnTimes;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
