/**
 * Output columns. Under Node, Buffer.allocUnsafe skips zero-filling: a fresh 8 MB
 * Float64Array costs about as much to zero as to fill, and every caller here writes all
 * of its elements before returning the column, so nothing old can show through.
 */
const unsafeBuffer: ((size: number) => Uint8Array) | undefined = (
  globalThis as { Buffer?: { allocUnsafeSlow(size: number): Uint8Array } }
).Buffer?.allocUnsafeSlow.bind(Buffer);

/** Columns shorter than this share an ArrayBuffer with their neighbours in allocColumns. */
const SHORT_COLUMN = 1024;
const SLAB_BYTES = 256 * 1024;

export function allocColumn(length: number): Float64Array {
  if (unsafeBuffer === undefined || length < SHORT_COLUMN) return new Float64Array(length);
  const bytes = unsafeBuffer(length * 8);
  return new Float64Array(bytes.buffer, bytes.byteOffset, length);
}

/**
 * `count` columns of `length` doubles. Short columns are cut from shared slabs of 256 KiB,
 * each its own range of one ArrayBuffer (as Node's small Buffers share a pool): an
 * ArrayBuffer costs ~1.4 µs to create here, with the garbage collection it brings, as
 * much as filling 4 KB, and wide data has thousands of columns (500 x 8,000: 11.5 ms for
 * the ArrayBuffers alone).
 */
export function allocColumns(count: number, length: number): Float64Array[] {
  if (length >= SHORT_COLUMN) return Array.from({ length: count }, () => allocColumn(length));
  const perSlab = Math.floor(SLAB_BYTES / (8 * Math.max(1, length)));
  const columns: Float64Array[] = [];
  for (let first = 0; first < count; first += perSlab) {
    const inSlab = Math.min(perSlab, count - first);
    const bytes = unsafeBuffer?.(inSlab * length * 8) ?? new Uint8Array(inSlab * length * 8);
    for (let j = 0; j < inSlab; j++) columns.push(new Float64Array(bytes.buffer, bytes.byteOffset + j * length * 8, length));
  }
  return columns;
}

/**
 * `make(col, c, out)` for every column, `out` a new column of its length from allocColumns
 * for `make` to fill and return: the transforms' column loops.
 */
export function mapColumns(
  columns: readonly Float64Array[],
  make: (col: Float64Array, c: number, out: Float64Array) => Float64Array,
): Float64Array[] {
  const outs = allocColumns(columns.length, columns[0]?.length ?? 0);
  return columns.map((col, c) => make(col, c, outs[c]));
}
