/** Temp data dirs and small DataFrames for Session tests against the real service. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DataFrame } from "danfojs-node";
import { afterAll, beforeAll } from "vitest";
import { Session } from "../../src/index.js";
import { seededRandom } from "../../src/core/sample-data/seeded-random.js";

export function tempDir(prefix = "mdps-session-"): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** Rows x (x1, label, x2, flag): two numeric features with a missing value, a string and a boolean passthrough. */
export function sampleFrame(rows: number, seed = 1): DataFrame {
  const r = seededRandom(seed);
  const x1: Array<number | null> = [];
  const x2: number[] = [];
  const label: string[] = [];
  const flag: boolean[] = [];
  for (let i = 0; i < rows; i++) {
    x1.push(i === 3 ? null : (r() - 0.5) * 100 + 0.1 / 3);
    x2.push(r() * 1e6 + 1);
    label.push(`row-${i}${i % 7 === 0 ? ", with comma" : ""}`);
    flag.push(i % 2 === 0);
  }
  return new DataFrame({ x1, label, x2, flag });
}

export function column(df: DataFrame, name: string): unknown[] {
  return df.column(name).values;
}

/** Population mean and standard deviation, skipping missing values, as scikit-learn's StandardScaler. */
export function standardize(values: ReadonlyArray<number | null | undefined>): Array<number | null> {
  const present = values.filter((v): v is number => typeof v === "number" && !Number.isNaN(v));
  const mean = present.reduce((a, b) => a + b, 0) / present.length;
  const variance = present.reduce((a, b) => a + (b - mean) ** 2, 0) / present.length;
  const std = Math.sqrt(variance);
  return values.map((v) => (typeof v === "number" && !Number.isNaN(v) ? (v - mean) / std : null));
}

export function isMissing(v: unknown): boolean {
  return v === null || v === undefined || (typeof v === "number" && Number.isNaN(v));
}

/**
 * One Session.local() on a temp data dir for a whole test file, closed and removed
 * after it. Call at the top level of the file; the returned getter gives the session.
 */
export function useLocalSession(): () => Session {
  let dir: ReturnType<typeof tempDir> | undefined;
  let session: Session | undefined;
  beforeAll(async () => {
    dir = tempDir();
    session = await Session.local({ dataDir: dir.path, service: { jobWorkers: 1 } });
  });
  afterAll(async () => {
    await session?.close();
    dir?.remove();
  });
  return () => {
    if (!session) throw new Error("useLocalSession: the session starts in beforeAll");
    return session;
  };
}

/**
 * Writes `<dir>/big.csv`: 1.2 M rows of two columns, on which PowerTransformer runs for
 * over a second, long enough to cancel it while it runs. Returns its path.
 */
export function writeSlowJobCsv(dir: string): string {
  const path = join(dir, "big.csv");
  const rows = ["a,b"];
  for (let i = 0; i < 1_200_000; i++)
    rows.push(`${(Math.sin(i) * 10 + i / 1e6).toFixed(6)},${((i % 97) / 7).toFixed(4)}`);
  writeFileSync(path, rows.join("\n"));
  return path;
}
