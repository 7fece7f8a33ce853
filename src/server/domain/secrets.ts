import { createHash, randomBytes, scrypt, scryptSync, timingSafeEqual } from "node:crypto";

/**
 * Client secrets are stored as scrypt hashes: `scrypt$N$r$p$salt$hash` (base64url).
 * N=2^14 costs ~50 ms per check: slow for a guesser, fast enough for a token exchange.
 */
const N = 16_384;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

export function newClientSecret(): string {
  return randomBytes(32).toString("base64url");
}

export function newClientId(): string {
  return `mdps-${randomBytes(12).toString("base64url")}`;
}

export function newAccessToken(): string {
  return randomBytes(32).toString("base64url");
}

/** The only form in which a token is stored. */
export function tokenDigest(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function hashSecretSync(secret: string): string {
  const salt = randomBytes(16);
  const hash = scryptSync(secret, salt, KEY_LENGTH, { N, r: R, p: P });
  return ["scrypt", N, R, P, salt.toString("base64url"), hash.toString("base64url")].join("$");
}

let decoy: string | undefined;

/**
 * A stored hash of no secret: checked against for unknown client ids, so both take as
 * long. Made at the first token request, not at start: hashing costs ~50 ms of CPU that
 * a service whose clients keep their tokens never needs. Every token request calls this,
 * so the first one costs the same whether its client id is known or not.
 */
export function decoyHash(): string {
  decoy ??= hashSecretSync(randomBytes(32).toString("base64url"));
  return decoy;
}

export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const actual = await new Promise<Buffer>((resolve, reject) =>
    scrypt(
      secret,
      Buffer.from(salt, "base64url"),
      expected.length,
      { N: Number(n), r: Number(r), p: Number(p) },
      (err, key) => (err ? reject(err) : resolve(key)),
    ),
  );
  return timingSafeEqual(actual, expected);
}
