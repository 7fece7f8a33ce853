/** What every reader accepts: bytes in memory, text, or a stream of byte chunks. */
export type Source = Uint8Array | string | AsyncIterable<Uint8Array>;

/** Slice size used to walk an in-memory source, so no reader decodes it all at once. */
export const SLICE_BYTES = 1 << 20;

/** The source as byte chunks, without copying in-memory bytes. */
export async function* byteChunks(source: Source): AsyncGenerator<Uint8Array> {
  if (typeof source === "string") {
    yield new TextEncoder().encode(source);
  } else if (source instanceof Uint8Array) {
    for (let i = 0; i < source.length; i += SLICE_BYTES) yield source.subarray(i, i + SLICE_BYTES);
  } else {
    for await (const chunk of source) {
      // Node streams may hand out strings when an encoding was set on them.
      yield typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk;
    }
  }
}

/** Reads a whole source into one contiguous, 8-byte aligned buffer (Arrow needs random access). */
export async function collectBytes(source: Source): Promise<Uint8Array> {
  if (source instanceof Uint8Array) return source;
  const parts: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of byteChunks(source)) {
    parts.push(chunk);
    total += chunk.length;
  }
  if (parts.length === 1 && (parts[0] as Uint8Array).byteOffset % 8 === 0) return parts[0] as Uint8Array;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
