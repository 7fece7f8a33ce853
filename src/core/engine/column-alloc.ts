/**
 * Output columns. Under Node, Buffer.allocUnsafe skips zero-filling: a fresh 8 MB
 * Float64Array costs about as much to zero as to fill, and every caller here writes all
 * of its elements before returning the column, so nothing old can show through.
 */
const unsafeBuffer: ((size: number) => Uint8Array) | undefined = (
  globalThis as { Buffer?: { allocUnsafeSlow(size: number): Uint8Array } }
).Buffer?.allocUnsafeSlow.bind(Buffer);

/** Columns shorter than this share small slabs; longer ones, large slabs. */
const SHORT_COLUMN = 1024;
const SHORT_SLAB_BYTES = 256 * 1024;
/**
 * Just under glibc's largest dynamic mmap threshold (32 MiB on 64 bits); see allocColumns.
 */
const LONG_SLAB_BYTES = 31 * 1024 * 1024;

/**
 * `count` columns of `length` doubles, cut from slabs: as many whole columns as fit in
 * one ArrayBuffer, each column its own range of it (as Node's small Buffers share a pool),
 * and a column larger than a slab alone in its own.
 *
 * Short columns (slabs of 256 KiB): creating an ArrayBuffer, with the garbage collection
 * it brings, costs as much as filling a few KB, and wide data has thousands of columns.
 *
 * Long columns (slabs of up to 31 MiB): glibc's malloc gives memory back to the kernel
 * when more than twice its mmap threshold lies free at the top of its heap, and raises
 * that threshold to the size of the largest block it had to mmap and later freed, up to
 * 32 MiB (mallopt(3), M_MMAP_THRESHOLD). With a block for each column of 100,000 rows the
 * threshold would stay at 800 KB, so a 40 MB result would go back to the kernel once
 * freed, and the next one would fault all its pages in again. Once one 31 MiB slab has
 * been freed, up to 62 MiB stays in the heap for the next result. Elsewhere (musl, macOS) these are merely
 * fewer buffers.
 */
export function allocColumns(count: number, length: number): Float64Array[] {
  const columnBytes = 8 * length;
  const slabBytes = length < SHORT_COLUMN ? SHORT_SLAB_BYTES : LONG_SLAB_BYTES;
  const perSlab = Math.max(1, Math.floor(slabBytes / Math.max(8, columnBytes)));
  const columns: Float64Array[] = [];
  for (let first = 0; first < count; first += perSlab) {
    const inSlab = Math.min(perSlab, count - first);
    const bytes = unsafeBuffer?.(inSlab * columnBytes) ?? new Uint8Array(inSlab * columnBytes);
    for (let j = 0; j < inSlab; j++)
      columns.push(new Float64Array(bytes.buffer, bytes.byteOffset + j * columnBytes, length));
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
