/**
 * Collects text lines into byte chunks of a bounded size for the streaming writers.
 * Each line is encoded straight into the current chunk, so no long text (and no long
 * chain of concatenated strings, which the garbage collector would have to promote and
 * trace) builds up between chunks.
 */
export class ByteChunker {
  private buffer: Buffer;
  private used = 0;
  /** Finished chunks, oldest first; the writer yields and clears them. */
  readonly ready: Buffer[] = [];

  constructor(private readonly size = 64 * 1024) {
    this.buffer = Buffer.allocUnsafe(size);
  }

  /** Appends a line; `ascii` promises it holds only U+0000..U+007F (encoded faster). */
  push(text: string, ascii = false): void {
    const worst = ascii ? text.length : text.length * 3; // UTF-8: at most 3 bytes per UTF-16 unit
    if (this.used + worst > this.size) {
      this.finishChunk();
      if (worst > this.size) {
        this.ready.push(Buffer.from(text, ascii ? "latin1" : "utf8"));
        return;
      }
    }
    this.used += this.buffer.write(text, this.used, ascii ? "latin1" : "utf8");
  }

  /** Moves the current chunk to `ready` (a chunk is never written to once handed out). */
  finishChunk(): void {
    if (this.used === 0) return;
    this.ready.push(this.buffer.subarray(0, this.used));
    this.buffer = Buffer.allocUnsafe(this.size);
    this.used = 0;
  }

  /** Hands out the finished chunks. */
  *drain(): Generator<Buffer> {
    while (this.ready.length > 0) yield this.ready.shift() as Buffer;
  }
}
