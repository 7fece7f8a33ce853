import { randomBytes } from "node:crypto";
import { MdpsError } from "../errors/mdps-error.js";

/** Length of an encryption key in bytes (AES-256). */
export const KEY_BYTES = 32;

/** A key that could not be read. The message never contains the key itself. */
export class InvalidEncryptionKeyError extends MdpsError {
  constructor(message: string) {
    super("invalid_encryption_key", message);
  }
}

// 32 bytes are 43 base64 characters plus one optional "=" of padding. Both the standard
// (+/) and the url (-_) alphabet are accepted; Buffer's decoder silently skips stray
// characters, so the shape is checked first.
const KEY_PATTERN = /^[A-Za-z0-9+/_-]{43}=?$/;

/**
 * Reads a 32-byte key written in base64 (standard or url alphabet, padding optional,
 * surrounding whitespace ignored).
 *
 * @example parseEncryptionKey(process.env.MDPS_KEY ?? "")
 */
export function parseEncryptionKey(text: string): Buffer {
  if (typeof text !== "string") {
    throw new InvalidEncryptionKeyError("invalid encryption key: expected a base64 string");
  }
  const trimmed = text.trim();
  if (!KEY_PATTERN.test(trimmed)) {
    throw new InvalidEncryptionKeyError(
      `invalid encryption key: expected ${KEY_BYTES} random bytes in base64 ` +
        `(43 characters of A-Z a-z 0-9 + / or - _, optionally one "=" at the end), ` +
        `got ${trimmed.length} characters; generate one with generateEncryptionKey()`,
    );
  }
  const key = Buffer.from(trimmed.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  if (key.length !== KEY_BYTES) {
    throw new InvalidEncryptionKeyError(`invalid encryption key: it does not decode to ${KEY_BYTES} bytes`);
  }
  return key;
}

/** A new random key, base64url without padding (43 characters). */
export function generateEncryptionKey(): string {
  return randomBytes(KEY_BYTES).toString("base64url");
}
