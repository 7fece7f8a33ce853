/**
 * Knowing a DataFrame's size before building it. danfo holds every value twice (row
 * arrays and column arrays, as JS numbers or references), so a frame costs far more
 * than its data; a frame larger than the heap aborts the whole process (a notebook
 * kernel dies) with nothing to catch. The estimate is checked against the heap that is
 * left, and a frame that would not fit is refused with FrameTooLargeError, which names
 * the columnar ways that do not build one.
 */
import { getHeapStatistics } from "node:v8";
import { MdpsError } from "../client/errors.js";

/**
 * Heap bytes a danfo frame keeps per value: 8 in its column array, 8 in its row array,
 * and a row array's header spread over its values (measured: 22.4 at 1M x 10).
 */
export const DANFO_BYTES_PER_VALUE = 24;

/**
 * Share of the heap left that one frame may take: the rest is for what the user does
 * next with it (danfo's operations copy) and for the garbage not yet collected.
 */
export const FRAME_HEAP_SHARE = 0.75;

export interface FrameSize {
  readonly rows: number;
  readonly columns: number;
}

/** A DataFrame that would not fit the JavaScript heap; nothing was built. */
export class FrameTooLargeError extends MdpsError {
  readonly rows: number;
  readonly columns: number;
  /** What the frame would take on the heap, bytes. */
  readonly estimatedBytes: number;
  /** What the heap has left for it, bytes. */
  readonly availableBytes: number;

  constructor(init: FrameSize & { what: string; estimatedBytes: number; availableBytes: number; instead: string }) {
    super(
      "frame_too_large",
      `${init.what} has ${init.rows.toLocaleString("en-US")} rows x ${init.columns} columns: as a danfo DataFrame ` +
        `it would take about ${mib(init.estimatedBytes)} of JavaScript heap, and ${mib(init.availableBytes)} is ` +
        `available, so it was not built (it would end the process). ${init.instead}`,
    );
    this.rows = init.rows;
    this.columns = init.columns;
    this.estimatedBytes = init.estimatedBytes;
    this.availableBytes = init.availableBytes;
  }
}

/** What a danfo frame of this size keeps on the heap, bytes. */
export function estimateFrameBytes(size: FrameSize): number {
  return size.rows * size.columns * DANFO_BYTES_PER_VALUE;
}

/** Heap bytes one frame may take now: a share of the limit less what is in use. */
export function frameHeapBudget(): number {
  const { heap_size_limit, used_heap_size } = getHeapStatistics();
  const limit = Math.min(heap_size_limit, oldSpaceLimitBytes() ?? Infinity);
  return Math.max(0, limit - used_heap_size) * FRAME_HEAP_SHARE;
}

/**
 * The old generation's limit when `--max-old-space-size` sets it (argument or NODE_OPTIONS).
 * A frame lives there; `heap_size_limit` also counts the young generation, which Node 24
 * sizes at twice the old space's limit on a small heap (96 MiB old space: 288 MiB).
 */
function oldSpaceLimitBytes(): number | undefined {
  const flags = [...(process.env.NODE_OPTIONS ?? "").split(/\s+/), ...process.execArgv];
  let mib: number | undefined;
  for (const flag of flags) {
    const match = /^--max[-_]old[-_]space[-_]size=(\d+)$/.exec(flag);
    if (match) mib = Number(match[1]);
  }
  return mib === undefined ? undefined : mib * 2 ** 20;
}

/**
 * Throws FrameTooLargeError when a frame of `size` would not fit the heap. `what` names
 * the data ("Job 1234's output 1"); `instead` says what to do instead.
 */
export function assertFrameFits(
  size: FrameSize,
  what: string,
  instead: string,
  budgetBytes: number = frameHeapBudget(),
): void {
  const estimatedBytes = estimateFrameBytes(size);
  if (estimatedBytes <= budgetBytes) return;
  throw new FrameTooLargeError({ ...size, what, estimatedBytes, availableBytes: budgetBytes, instead });
}

/** The advice for a job's output. */
export function jobOutputInstead(jobId: string): string {
  return (
    `Read it as an Arrow Table with \`await job.table()\` (columnar, about 8 bytes a number), or write it to a ` +
    `file with \`await job.download("out.parquet")\` (or .arrow, .csv), without a DataFrame (job ${jobId}). ` +
    `Or give Node more heap: node --max-old-space-size=<MiB>.`
  );
}

function mib(bytes: number): string {
  return `${Math.round(bytes / 2 ** 20).toLocaleString("en-US")} MiB`;
}
