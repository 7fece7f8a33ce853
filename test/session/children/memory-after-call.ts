/**
 * Child process for memory.test.ts (run with --expose-gc): the heap and external memory
 * after a 200,000 x 10 DataFrame job on an open Session.local(), once the caller dropped
 * the frames (holding on to the Job handle), against before. Prints one JSON line (MiB).
 *
 *   node --expose-gc --import tsx test/session/children/memory-after-call.ts <dataDir>
 */
import { DataFrame } from "danfojs-node";
import { Session, type Job } from "../../../src/index.js";

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error("run with --expose-gc");
const [dataDir] = process.argv.slice(2) as [string];
const ROWS = 200_000;

function inUse(): number {
  gc!();
  gc!();
  const m = process.memoryUsage();
  return (m.heapUsed + m.external) / 2 ** 20;
}

function frame(rows: number): DataFrame {
  const data: Record<string, number[]> = {};
  for (let c = 0; c < 10; c++) data[`f${c}`] = Array.from({ length: rows }, (_, i) => ((i * (c + 3)) % 1009) / 7);
  return new DataFrame(data);
}

const session = await Session.local({ dataDir });
// Modules, JIT and the worker warm with a small job first.
await (await session.preprocess(frame(100), { type: "StandardScaler" })).dataframe();
const before = inUse();
// In a function of its own: a top-level block's variables can stay in the module's context.
async function oneCall(): Promise<{ job: Job; held: number }> {
  const input = frame(ROWS);
  const job = await session.preprocess(input, { type: "StandardScaler" });
  const out = await job.dataframe();
  if (out.shape[0] !== ROWS) throw new Error("wrong row count");
  return { job, held: inUse() - before };
}
const { job, held } = await oneCall();
await new Promise((resolve) => setTimeout(resolve, 50));
const after = inUse() - before;
console.log(JSON.stringify({ held, after, jobKept: job.id.length > 0 }));
await session.close();
