/**
 * Rate limits are counted in each process's memory (docs/service.md#rate-limits): two
 * `mdps serve` processes on one data dir each allow the whole limit, so together twice
 * it, for one client_id and for one access token alike. What a client sees past a
 * process's limit: a 429 problem+json with Retry-After, naming the limit and its flag.
 */
import { afterAll, describe, expect, it } from "vitest";
import { exchange } from "../service/service-harness.js";
import { registerApp, ServeHarness, type Served } from "./serve-harness.js";

const harness = new ServeHarness();
afterAll(() => harness.cleanup());

const LIMITS = ["--token-rate-limit", "2", "--api-rate-limit", "3"];

async function health(served: Served, token: string): Promise<Response> {
  const response = await fetch(`${served.url}/api/shared/health`, { headers: { authorization: `Bearer ${token}` } });
  await response.arrayBuffer();
  return response;
}

describe("rate limits are per process", () => {
  it("two processes on one data dir each allow the full limit: twice the limit together", async () => {
    const dataDir = await harness.tempDir();
    const app = registerApp(dataDir);
    const [a, b] = await Promise.all([harness.serve(dataDir, LIMITS), harness.serve(dataDir, LIMITS)]);
    const form = { grant_type: "client_credentials", client_id: app.clientId, client_secret: app.clientSecret };

    // Token requests for one client_id: 2 a minute on each process, 4 on the data dir.
    const tokens: string[] = [];
    for (const served of [a, b]) {
      for (let i = 0; i < 2; i++) {
        const reply = await exchange(served.url, form);
        expect(reply.status).toBe(200);
        tokens.push((reply.body as { access_token: string }).access_token);
      }
      const limited = await exchange(served.url, form);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect((limited.body as { detail: string }).detail).toMatch(/the limit is 2 per minute.*--token-rate-limit/);
    }

    // One access token (from process a) is valid on both; each counts its own 3 calls.
    const token = tokens[0]!;
    for (const served of [a, b]) {
      for (let i = 0; i < 3; i++) {
        const ok = await health(served, token);
        expect(ok.status).toBe(200);
        expect(ok.headers.get("x-ratelimit-remaining")).toBe(String(2 - i));
      }
      const limited = await health(served, token);
      expect(limited.status).toBe(429);
      expect(limited.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(limited.headers.get("x-ratelimit-limit")).toBe("3");
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    }
  }, 120_000);
});
