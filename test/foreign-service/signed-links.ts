/**
 * Download URLs for `resultShape: "download-urls"`: absolute, signed and short-lived, served
 * without a bearer token, like a storage account's shared-access URL.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const SIGNED_DOWNLOAD_PATH = "/downloads/:blobId";

export class SignedLinks {
  private readonly key = randomBytes(32);

  constructor(
    private readonly lifetimeSeconds = 900,
    private readonly now: () => number = Date.now,
  ) {}

  /** `origin` is scheme, host and port, e.g. `http://127.0.0.1:5123`. */
  sign(origin: string, blobId: string): string {
    const expires = Math.floor(this.now() / 1000) + this.lifetimeSeconds;
    const url = new URL(`/downloads/${encodeURIComponent(blobId)}`, origin);
    url.searchParams.set("se", String(expires));
    url.searchParams.set("sig", this.signature(blobId, expires));
    return url.toString();
  }

  verify(blobId: string, expires: string | undefined, signature: string | undefined): "ok" | "expired" | "invalid" {
    if (expires === undefined || signature === undefined || !/^\d+$/.test(expires)) return "invalid";
    const expected = Buffer.from(this.signature(blobId, Number(expires)));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return "invalid";
    return Number(expires) * 1000 < this.now() ? "expired" : "ok";
  }

  private signature(blobId: string, expires: number): string {
    return createHmac("sha256", this.key).update(`${blobId}\n${expires}`).digest("base64url");
  }
}
