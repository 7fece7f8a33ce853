import { randomBytes } from "node:crypto";
import { Readable, type Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_CHUNK_SIZE,
  DecryptionError,
  HEADER_BYTES,
  TAG_BYTES,
  createDecryptStream,
  createEncryptStream,
  decryptBuffer,
  encryptBuffer,
  generateEncryptionKey,
  isEncryptedEnvelope,
  parseEncryptionKey,
} from "../../src/core/crypto/envelope.js";

/** Runs bytes through a transform, fed in pieces of `piece` bytes. */
async function through(stream: Transform, data: Buffer, piece = 10_000): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for (let i = 0; i < data.length; i += piece) pieces.push(data.subarray(i, i + piece));
  const out: Buffer[] = [];
  await pipeline(Readable.from(pieces), stream, async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) out.push(chunk);
  });
  return Buffer.concat(out);
}

const key = parseEncryptionKey(generateEncryptionKey());
const C = DEFAULT_CHUNK_SIZE;

describe("envelope round trip", () => {
  for (const size of [0, 1, C - 1, C, C + 1, 2 * C, 5 * 1024 * 1024 + 7]) {
    it(`streams ${size} bytes`, async () => {
      const plain = randomBytes(size);
      const sealed = await through(createEncryptStream(key), plain, 7_001);
      const chunks = Math.max(1, Math.ceil(size / C));
      expect(sealed.length).toBe(HEADER_BYTES + size + chunks * TAG_BYTES);
      expect(isEncryptedEnvelope(sealed)).toBe(true);
      expect((await through(createDecryptStream(key), sealed, 3_333)).equals(plain)).toBe(true);
      // The buffer helpers read and write the same format as the streams.
      expect(decryptBuffer(key, sealed).equals(plain)).toBe(true);
      expect((await through(createDecryptStream(key), encryptBuffer(key, plain))).equals(plain)).toBe(true);
    });
  }

  it("decrypts when fed one byte at a time", async () => {
    const plain = randomBytes(300);
    const sealed = encryptBuffer(key, plain, { chunkSize: 64 });
    expect((await through(createDecryptStream(key), sealed, 1)).equals(plain)).toBe(true);
  });

  it("uses a fresh salt and nonce prefix per envelope", () => {
    const plain = Buffer.from("same text");
    const a = encryptBuffer(key, plain);
    const b = encryptBuffer(key, plain);
    expect(a.subarray(16, 55).equals(b.subarray(16, 55))).toBe(false);
    expect(a.subarray(HEADER_BYTES).equals(b.subarray(HEADER_BYTES))).toBe(false);
  });
});

describe("envelope tampering", () => {
  const chunkSize = 1000;
  const plain = randomBytes(3 * chunkSize + 500);
  const sealed = encryptBuffer(key, plain, { chunkSize });
  const sealedChunk = chunkSize + TAG_BYTES;
  const chunkAt = (i: number) => sealed.subarray(HEADER_BYTES + i * sealedChunk, HEADER_BYTES + (i + 1) * sealedChunk);

  async function expectFailure(bytes: Buffer, withKey = key): Promise<void> {
    expect(() => decryptBuffer(withKey, bytes)).toThrow(DecryptionError);
    const err = await through(createDecryptStream(withKey), bytes, 777).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DecryptionError);
  }

  it("rejects a wrong key with the fixed message", async () => {
    const other = parseEncryptionKey(generateEncryptionKey());
    await expectFailure(sealed, other);
    try {
      decryptBuffer(other, sealed);
    } catch (err) {
      expect((err as Error).message).toBe("could not decrypt: wrong key or corrupted data");
      expect((err as Error).message).not.toContain(other.toString("base64"));
    }
  });

  it("detects truncation at a chunk boundary", async () => {
    await expectFailure(sealed.subarray(0, HEADER_BYTES + 2 * sealedChunk));
    await expectFailure(sealed.subarray(0, HEADER_BYTES + 3 * sealedChunk));
    await expectFailure(sealed.subarray(0, HEADER_BYTES));
  });

  it("detects truncation inside a chunk and appended bytes", async () => {
    await expectFailure(sealed.subarray(0, sealed.length - 1));
    await expectFailure(Buffer.concat([sealed, Buffer.from([0])]));
    await expectFailure(Buffer.concat([sealed, chunkAt(0)]));
  });

  it("detects a flipped byte anywhere", async () => {
    for (const at of [9, 13, 20, 50, HEADER_BYTES, HEADER_BYTES + 1500, sealed.length - 1]) {
      const bad = Buffer.from(sealed);
      bad[at] = (bad[at] as number) ^ 0x01;
      await expectFailure(bad);
    }
  });

  it("detects reordered and duplicated chunks", async () => {
    const header = sealed.subarray(0, HEADER_BYTES);
    const last = sealed.subarray(HEADER_BYTES + 3 * sealedChunk);
    await expectFailure(Buffer.concat([header, chunkAt(1), chunkAt(0), chunkAt(2), last]));
    await expectFailure(Buffer.concat([header, chunkAt(0), chunkAt(0), chunkAt(2), last]));
  });

  it("says when the data is not an envelope at all", async () => {
    const err = await through(createDecryptStream(key), Buffer.from("a,b\n1,2\n")).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DecryptionError);
    expect((err as DecryptionError).code).toBe("not_an_envelope");
    expect(isEncryptedEnvelope(Buffer.from("a,b\n1,2\n"))).toBe(false);
  });
});

describe("encryption keys", () => {
  it("accepts standard and url alphabets, with or without padding", () => {
    const raw = randomBytes(32);
    for (const text of [raw.toString("base64"), raw.toString("base64url"), ` ${raw.toString("base64url")}\n`]) {
      expect(parseEncryptionKey(text).equals(raw)).toBe(true);
    }
    expect(generateEncryptionKey()).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("rejects bad keys without echoing them", () => {
    const secretish = "c2VjcmV0LWtleS10aGF0LWlzLXRvby1zaG9ydA";
    for (const text of [
      secretish,
      "",
      randomBytes(31).toString("base64"),
      randomBytes(33).toString("base64"),
      "!".repeat(43),
    ]) {
      let message = "";
      try {
        parseEncryptionKey(text);
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toMatch(/invalid encryption key/);
      if (text.length > 0) expect(message).not.toContain(text);
    }
  });
});
