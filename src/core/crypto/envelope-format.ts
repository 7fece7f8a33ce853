/**
 * The byte layout of the mdps encryption envelope (docs/encryption.md is the spec).
 * Pure functions over buffers; the streams in ./envelope.ts only do the buffering.
 *
 *   header (56 bytes) = magic "MDPSENC1" | version u8 = 1 | reserved 3 bytes = 0
 *                     | chunk size u32 BE | salt 32 bytes | nonce prefix 7 bytes | reserved 1 byte = 0
 *   chunk i           = AES-256-GCM(subkey, nonce(i, last), aad = header)
 *                       ciphertext || 16-byte tag
 *   subkey            = HKDF-SHA256(key, salt, info = "mdps envelope v1", 32 bytes)
 *   nonce(i, last)    = nonce prefix[0..7) | counter i u32 BE | last ? 0x01 : 0x00
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { MdpsError } from "../errors/mdps-error.js";

// Typed as plain `Buffer`: an inferred `Buffer<ArrayBuffer>` in the .d.ts breaks tslab, whose @types/node 18 has no generic Buffer.
export const MAGIC: Buffer = Buffer.from("MDPSENC1", "ascii");
export const VERSION = 1;
export const HEADER_BYTES = 56;
export const TAG_BYTES = 16;
export const DEFAULT_CHUNK_SIZE = 64 * 1024;
/** Bounds a reader accepts, so a corrupted header cannot make it buffer gigabytes. */
export const MIN_CHUNK_SIZE = 1;
export const MAX_CHUNK_SIZE = 16 * 1024 * 1024;
const MAX_CHUNKS = 2 ** 32;
const HKDF_INFO = Buffer.from("mdps envelope v1", "ascii");

/** Raised for every failure to decrypt. Never carries the key. */
export class DecryptionError extends MdpsError {
  declare readonly code: "decryption_failed" | "not_an_envelope" | "unsupported_version";
  constructor(
    message = "could not decrypt: wrong key or corrupted data",
    code: DecryptionError["code"] = "decryption_failed",
  ) {
    super(code, message);
  }
}

export interface EnvelopeHeader {
  readonly bytes: Buffer;
  readonly chunkSize: number;
  readonly subkey: Buffer;
  readonly noncePrefix: Buffer;
}

function deriveSubkey(key: Buffer, salt: Buffer): Buffer {
  if (key.length !== 32) throw new RangeError("the encryption key must be 32 bytes");
  return Buffer.from(hkdfSync("sha256", key, salt, HKDF_INFO, 32));
}

export function newHeader(key: Buffer, chunkSize = DEFAULT_CHUNK_SIZE): EnvelopeHeader {
  if (!Number.isInteger(chunkSize) || chunkSize < MIN_CHUNK_SIZE || chunkSize > MAX_CHUNK_SIZE) {
    throw new RangeError(`chunk size must be an integer in ${MIN_CHUNK_SIZE}..${MAX_CHUNK_SIZE}`);
  }
  const bytes = Buffer.alloc(HEADER_BYTES);
  MAGIC.copy(bytes, 0);
  bytes[8] = VERSION;
  bytes.writeUInt32BE(chunkSize, 12);
  randomBytes(32).copy(bytes, 16);
  randomBytes(7).copy(bytes, 48);
  return readHeader(key, bytes);
}

/** Parses and checks a header; `bytes` must hold at least HEADER_BYTES. */
export function readHeader(key: Buffer, bytes: Buffer): EnvelopeHeader {
  if (bytes.length < HEADER_BYTES || !bytes.subarray(0, 8).equals(MAGIC)) {
    throw new DecryptionError("could not decrypt: the data is not an mdps encrypted envelope", "not_an_envelope");
  }
  if (bytes[8] !== VERSION) {
    throw new DecryptionError(
      `could not decrypt: envelope version ${bytes[8]} is not supported (this mdps reads version ${VERSION})`,
      "unsupported_version",
    );
  }
  const header = Buffer.from(bytes.subarray(0, HEADER_BYTES));
  const chunkSize = header.readUInt32BE(12);
  if (
    header[9] !== 0 ||
    header[10] !== 0 ||
    header[11] !== 0 ||
    header[55] !== 0 ||
    chunkSize < MIN_CHUNK_SIZE ||
    chunkSize > MAX_CHUNK_SIZE
  ) {
    throw new DecryptionError();
  }
  return {
    bytes: header,
    chunkSize,
    subkey: deriveSubkey(key, header.subarray(16, 48)),
    noncePrefix: header.subarray(48, 55),
  };
}

function nonce(header: EnvelopeHeader, index: number, last: boolean): Buffer {
  if (index >= MAX_CHUNKS) throw new RangeError("envelope too large: more than 2^32 chunks");
  const n = Buffer.alloc(12);
  header.noncePrefix.copy(n, 0);
  n.writeUInt32BE(index, 7);
  n[11] = last ? 1 : 0;
  return n;
}

/** Encrypts one chunk: returns ciphertext || tag as one buffer. */
export function sealChunk(header: EnvelopeHeader, index: number, last: boolean, plaintext: Uint8Array): Buffer {
  const cipher = createCipheriv("aes-256-gcm", header.subkey, nonce(header, index, last));
  cipher.setAAD(header.bytes);
  const out = Buffer.allocUnsafe(plaintext.length + TAG_BYTES);
  const body = cipher.update(plaintext);
  body.copy(out, 0);
  const rest = cipher.final();
  rest.copy(out, body.length);
  cipher.getAuthTag().copy(out, plaintext.length);
  return out;
}

/** Decrypts and authenticates one chunk (ciphertext || tag); throws DecryptionError. */
export function openChunk(header: EnvelopeHeader, index: number, last: boolean, sealed: Uint8Array): Buffer {
  if (sealed.length < TAG_BYTES || index >= MAX_CHUNKS) throw new DecryptionError();
  const decipher = createDecipheriv("aes-256-gcm", header.subkey, nonce(header, index, last));
  decipher.setAAD(header.bytes);
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  const body = decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES));
  try {
    const rest = decipher.final();
    return rest.length === 0 ? body : Buffer.concat([body, rest]);
  } catch {
    throw new DecryptionError();
  }
}
