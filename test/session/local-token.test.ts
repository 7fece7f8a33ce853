/**
 * Session.local() keeps its access token between runs in the data dir (0600, beside the
 * credentials file), so a second run makes no token exchange; a token the service does
 * not know, or one that expired, is replaced by a fresh one.
 */
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Session } from "../../src/index.js";
import { credentialsFingerprint } from "../../src/client/persisted-token.js";
import { TOKEN_FILE } from "../../src/local/local-token.js";
import { sampleFrame, tempDir } from "./session-fixture.js";

function kept(dataDir: string): { credentials: string; access_token: string; expires_at_ms: number } {
  return JSON.parse(readFileSync(join(dataDir, TOKEN_FILE), "utf8")) as {
    credentials: string;
    access_token: string;
    expires_at_ms: number;
  };
}

describe("Session.local() token kept between runs", () => {
  it("writes the token 0600 and a second run sends a job without a token exchange", async () => {
    const dir = tempDir();
    try {
      const first = await Session.local({ dataDir: dir.path });
      expect(first.client.tokens.refreshCount).toBe(1);
      await first.close();
      const path = join(dir.path, TOKEN_FILE);
      expect(statSync(path).mode & 0o777).toBe(0o600);
      const file = kept(dir.path);
      const { clientId, clientSecret } = first.client.config;
      expect(file.credentials).toBe(credentialsFingerprint(clientId, clientSecret));
      expect(readFileSync(path, "utf8")).not.toContain(clientSecret.reveal());
      expect(file.expires_at_ms).toBeGreaterThan(Date.now() + 60_000);

      const second = await Session.local({ dataDir: dir.path });
      try {
        const job = await second.preprocess(sampleFrame(20), { type: "StandardScaler", columns: ["x1", "x2"] });
        await job.dataframe();
        expect(second.client.tokens.refreshCount).toBe(0);
      } finally {
        await second.close();
      }
      expect(kept(dir.path).access_token).toBe(file.access_token);
    } finally {
      dir.remove();
    }
  });

  it("replaces a token the service does not know, and an expired one", async () => {
    const dir = tempDir();
    try {
      await (await Session.local({ dataDir: dir.path })).close();
      const file = kept(dir.path);
      const path = join(dir.path, TOKEN_FILE);

      writeFileSync(path, JSON.stringify({ ...file, access_token: "not-a-token-the-service-issued" }), { mode: 0o600 });
      const unknown = await Session.local({ dataDir: dir.path });
      try {
        expect(unknown.client.tokens.refreshCount).toBe(1);
        await unknown.preprocess(sampleFrame(20), { type: "StandardScaler", columns: ["x1", "x2"] });
      } finally {
        await unknown.close();
      }
      const fresh = kept(dir.path);
      expect(fresh.access_token).not.toBe("not-a-token-the-service-issued");

      writeFileSync(path, JSON.stringify({ ...fresh, expires_at_ms: Date.now() - 1000 }), { mode: 0o600 });
      const expired = await Session.local({ dataDir: dir.path });
      await expired.close();
      expect(expired.client.tokens.refreshCount).toBe(1);
      expect(kept(dir.path).expires_at_ms).toBeGreaterThan(Date.now());
      expect(statSync(path).mode & 0o777).toBe(0o600);
    } finally {
      dir.remove();
    }
  });
});
