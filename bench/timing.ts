/** Timing helpers shared by the benchmarks that compare against scikit-learn's timer. */

/** Seconds per run, in wall-clock time and in process CPU time (the steadier one when other work shares the machine). */
export interface Timings {
  wall: number[];
  cpu: number[];
}

export function emptyTimings(): Timings {
  return { wall: [], cpu: [] };
}

/**
 * Times `run` `repeats` times, after one untimed call when `warmup`. Yields to the event
 * loop before each run, as the service does between jobs, so memory freed by one run can
 * be returned before the next (Python frees at once by refcount).
 */
export async function timeRuns(run: () => unknown, repeats: number, warmup: boolean): Promise<Timings> {
  if (warmup) run();
  const times = emptyTimings();
  for (let r = 0; r < repeats; r++) {
    await new Promise((resolve) => setImmediate(resolve));
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    run();
    const t1 = performance.now();
    const c1 = process.cpuUsage(c0);
    times.wall.push((t1 - t0) / 1000);
    times.cpu.push((c1.user + c1.system) / 1e6);
  }
  return times;
}

export function append(to: Timings, from: Timings): void {
  to.wall.push(...from.wall);
  to.cpu.push(...from.cpu);
}

export const best = (xs: readonly number[]) => Math.min(...xs);

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  const upper = s[mid] ?? NaN;
  return s.length % 2 === 1 ? upper : ((s[mid - 1] ?? NaN) + upper) / 2;
}

export const fmt = (x: number | undefined, digits = 3) => (x === undefined ? "-" : x.toFixed(digits));
