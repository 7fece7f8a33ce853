/**
 * scikit-learn's side of the engine benchmark. One python process loads the same data
 * (raw float64, row-major, through a temp file) once, then times fit_transform for each
 * request on stdin, so every transform is timed right after ours, under the same load.
 * "copy" times numpy's own copy of the data (the floor for any transform that returns new
 * memory), "read" a sum over it. Returns every repeat's time, in wall-clock and in
 * process CPU seconds.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface, type Interface } from "node:readline";
import { rowMajor, type BenchData } from "./engine-data.js";
import type { Timings } from "./timing.js";

const PYTHON = "/usr/bin/python3";

const SCRIPT = String.raw`
import json, sys, time
import numpy as np
import sklearn
from sklearn import preprocessing as pp
path, clean_path, rows, cols = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
X = np.fromfile(path, dtype=np.float64).reshape(rows, cols)
Xc = np.fromfile(clean_path, dtype=np.float64).reshape(rows, cols)
print(json.dumps({"version": sklearn.__version__}), flush=True)

def run(name, params, data):
    if name == "copy":
        return data.copy()
    if name == "read":
        return data.sum()
    return getattr(pp, name)(**params).fit_transform(data)

for line in sys.stdin:
    name, params, repeats, warmup = json.loads(line)
    data = Xc if name in ("Normalizer", "Binarizer") else X
    if warmup:
        run(name, params, data)
    walls, cpus = [], []
    for _ in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        run(name, params, data)
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    print(json.dumps({"wall": walls, "cpu": cpus}), flush=True)
`;

export function sklearnAvailable(): boolean {
  return spawnSync(PYTHON, ["-c", "import sklearn"], { stdio: "ignore" }).status === 0;
}

export class SklearnTimer {
  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly lines: AsyncIterator<string>,
    private readonly reader: Interface,
    private readonly dir: string,
    readonly version: string,
  ) {}

  static async start(data: BenchData): Promise<SklearnTimer> {
    const dir = mkdtempSync(join(tmpdir(), "mdps-bench-"));
    const path = join(dir, "x.f64");
    const cleanPath = join(dir, "x-clean.f64");
    writeFileSync(path, rowMajor(data.columns));
    writeFileSync(cleanPath, rowMajor(data.finite));
    const child = spawn(PYTHON, ["-c", SCRIPT, path, cleanPath, String(data.rows), String(data.cols)]);
    child.stderr.on("data", (chunk: Buffer) => process.stderr.write(chunk));
    const reader = createInterface({ input: child.stdout });
    const lines = reader[Symbol.asyncIterator]();
    const first = await lines.next();
    if (first.done) throw new Error("the scikit-learn benchmark process exited before loading the data");
    const { version } = JSON.parse(first.value) as { version: string };
    return new SklearnTimer(child, lines, reader, dir, version);
  }

  /** Times `name` (a scikit-learn transform, "copy" or "read") `repeats` times, after one untimed run when `warmup`. */
  async time(name: string, params: Record<string, unknown>, repeats: number, warmup: boolean): Promise<Timings> {
    this.child.stdin.write(`${JSON.stringify([name, params, repeats, warmup])}\n`);
    const line = await this.lines.next();
    if (line.done) throw new Error(`the scikit-learn benchmark process exited while timing ${name}`);
    return JSON.parse(line.value) as Timings;
  }

  close(): void {
    this.child.stdin.end();
    this.reader.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
