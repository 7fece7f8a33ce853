/**
 * Streaming AES-256-GCM envelope for blobs (format in ./envelope-format.ts and
 * docs/encryption.md). Each chunk is authenticated before its plaintext is released;
 * truncation is only detectable at the end, so a consumer must treat a stream error
 * as "discard everything written so far".
 */
import { Transform, type TransformCallback } from "node:stream";
import {
  DEFAULT_CHUNK_SIZE,
  DecryptionError,
  HEADER_BYTES,
  MAGIC,
  TAG_BYTES,
  newHeader,
  openChunk,
  readHeader,
  sealChunk,
  type EnvelopeHeader,
} from "./envelope-format.js";

export { DecryptionError, DEFAULT_CHUNK_SIZE, HEADER_BYTES, TAG_BYTES } from "./envelope-format.js";
export { generateEncryptionKey, InvalidEncryptionKeyError, parseEncryptionKey } from "./encryption-key.js";

export interface EncryptOptions {
  /** Plaintext bytes per chunk (default 64 KiB); the reader takes it from the header. */
  readonly chunkSize?: number;
}

/** A FIFO of byte chunks that hands out exact-size slices without re-copying the tail. */
class ByteQueue {
  private parts: Buffer[] = [];
  length = 0;
  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.parts.push(chunk);
    this.length += chunk.length;
  }
  /** Removes and returns the first n bytes (n <= length). */
  take(n: number): Buffer {
    const first = this.parts[0];
    if (first !== undefined && first.length >= n) {
      const out = first.subarray(0, n);
      if (first.length === n) this.parts.shift();
      else this.parts[0] = first.subarray(n);
      this.length -= n;
      return out;
    }
    const out = Buffer.allocUnsafe(n);
    let filled = 0;
    while (filled < n) {
      const part = this.parts[0] as Buffer;
      const used = Math.min(part.length, n - filled);
      part.copy(out, filled, 0, used);
      filled += used;
      if (used === part.length) this.parts.shift();
      else this.parts[0] = part.subarray(used);
    }
    this.length -= n;
    return out;
  }
}

function toBuffer(chunk: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  if (typeof chunk === "string") return Buffer.from(chunk, "utf8");
  throw new TypeError("expected bytes");
}

/** Plaintext in, envelope out. */
export function createEncryptStream(key: Buffer, options: EncryptOptions = {}): Transform {
  const header = newHeader(key, options.chunkSize ?? DEFAULT_CHUNK_SIZE);
  const size = header.chunkSize;
  const queue = new ByteQueue();
  let index = 0;
  let headerSent = false;
  const sendHeader = (stream: Transform) => {
    if (!headerSent) stream.push(header.bytes);
    headerSent = true;
  };
  return new Transform({
    transform(chunk: unknown, _enc, done: TransformCallback) {
      try {
        sendHeader(this);
        queue.push(toBuffer(chunk));
        // Keep at least one byte back: only the end of input tells which chunk is last.
        while (queue.length > size) this.push(sealChunk(header, index++, false, queue.take(size)));
        done();
      } catch (err) {
        done(err as Error);
      }
    },
    flush(done: TransformCallback) {
      try {
        sendHeader(this);
        this.push(sealChunk(header, index++, true, queue.take(queue.length)));
        done();
      } catch (err) {
        done(err as Error);
      }
    },
  });
}

/** Envelope in, plaintext out; fails with DecryptionError on a wrong key or any tampering. */
export function createDecryptStream(key: Buffer): Transform {
  const queue = new ByteQueue();
  let header: EnvelopeHeader | undefined;
  let index = 0;
  const drain = (stream: Transform) => {
    if (header === undefined) {
      if (queue.length < HEADER_BYTES) return;
      header = readHeader(key, queue.take(HEADER_BYTES));
    }
    const sealedSize = header.chunkSize + TAG_BYTES;
    while (queue.length > sealedSize) stream.push(openChunk(header, index++, false, queue.take(sealedSize)));
  };
  return new Transform({
    transform(chunk: unknown, _enc, done: TransformCallback) {
      try {
        queue.push(toBuffer(chunk));
        drain(this);
        done();
      } catch (err) {
        done(err as Error);
      }
    },
    flush(done: TransformCallback) {
      try {
        drain(this);
        if (header === undefined) {
          throw queue.length === 0 || !isEncryptedEnvelope(queue.take(queue.length))
            ? new DecryptionError("could not decrypt: the data is not an mdps encrypted envelope", "not_an_envelope")
            : new DecryptionError();
        }
        this.push(openChunk(header, index++, true, queue.take(queue.length)));
        done();
      } catch (err) {
        done(err as Error);
      }
    },
  });
}

/** Encrypts a whole buffer at once (same format as the stream). */
export function encryptBuffer(key: Buffer, plaintext: Uint8Array, options: EncryptOptions = {}): Buffer {
  const header = newHeader(key, options.chunkSize ?? DEFAULT_CHUNK_SIZE);
  const size = header.chunkSize;
  const parts: Buffer[] = [header.bytes];
  let offset = 0;
  let index = 0;
  while (plaintext.length - offset > size) {
    parts.push(sealChunk(header, index++, false, plaintext.subarray(offset, offset + size)));
    offset += size;
  }
  parts.push(sealChunk(header, index, true, plaintext.subarray(offset)));
  return Buffer.concat(parts);
}

/** Decrypts a whole envelope at once; throws DecryptionError. */
export function decryptBuffer(key: Buffer, envelope: Uint8Array): Buffer {
  const bytes = toBuffer(envelope);
  const header = readHeader(key, bytes);
  const sealedSize = header.chunkSize + TAG_BYTES;
  const parts: Buffer[] = [];
  let offset = HEADER_BYTES;
  let index = 0;
  while (bytes.length - offset > sealedSize) {
    parts.push(openChunk(header, index++, false, bytes.subarray(offset, offset + sealedSize)));
    offset += sealedSize;
  }
  parts.push(openChunk(header, index, true, bytes.subarray(offset)));
  return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
}

/** True when the bytes start with the envelope's magic (8 bytes are enough). */
export function isEncryptedEnvelope(firstBytes: Uint8Array): boolean {
  if (firstBytes.length < MAGIC.length) return false;
  for (let i = 0; i < MAGIC.length; i++) if (firstBytes[i] !== MAGIC[i]) return false;
  return true;
}
