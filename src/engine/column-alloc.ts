/**
 * Output columns. Under Node, Buffer.allocUnsafe skips zero-filling: a fresh 8 MB
 * Float64Array costs about as much to zero as to fill, and every caller here writes all
 * of its elements before returning the column, so nothing old can show through.
 */
const unsafeBuffer: ((size: number) => Uint8Array) | undefined = (
  globalThis as { Buffer?: { allocUnsafeSlow(size: number): Uint8Array } }
).Buffer?.allocUnsafeSlow.bind(Buffer);

export function allocColumn(length: number): Float64Array {
  if (unsafeBuffer === undefined || length < 1024) return new Float64Array(length);
  const bytes = unsafeBuffer(length * 8);
  return new Float64Array(bytes.buffer, bytes.byteOffset, length);
}
