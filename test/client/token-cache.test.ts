import { describe, expect, it } from "vitest";
import { Secret } from "../../src/client/secret.js";
import { refreshMarginMs, TokenCache } from "../../src/client/token-cache.js";

function counter(expiresIn: number) {
  let n = 0;
  let release: (() => void) | undefined;
  const gate = { hold: false };
  const provider = async () => {
    n += 1;
    const token = new Secret(`t${n}`);
    if (gate.hold) await new Promise<void>((r) => (release = r));
    return { token, expiresIn };
  };
  return { provider, calls: () => n, gate, release: () => release?.() };
}

describe("TokenCache", () => {
  it("shares one in-flight refresh between concurrent callers", async () => {
    const p = counter(3600);
    p.gate.hold = true;
    const cache = new TokenCache(p.provider);
    const waiting = Promise.all([cache.get(), cache.get(), cache.get()]);
    await new Promise((r) => setTimeout(r, 10));
    p.release();
    const tokens = await waiting;
    expect(p.calls()).toBe(1);
    expect(tokens.map((t) => t.reveal())).toEqual(["t1", "t1", "t1"]);
  });

  it("refreshes ahead of expiry", async () => {
    let now = 1_000_000;
    const p = counter(100);
    const cache = new TokenCache(p.provider, () => now);
    expect((await cache.get()).reveal()).toBe("t1");
    now += 100_000 - refreshMarginMs(100) - 1;
    expect((await cache.get()).reveal()).toBe("t1");
    now += 1;
    expect((await cache.get()).reveal()).toBe("t2");
    expect(refreshMarginMs(3600)).toBe(60_000);
    expect(refreshMarginMs(2)).toBe(200);
  });

  it("invalidates only the token that failed", async () => {
    const p = counter(3600);
    const cache = new TokenCache(p.provider);
    const t1 = await cache.get();
    cache.invalidate(t1);
    const t2 = await cache.get();
    expect(t2.reveal()).toBe("t2");
    cache.invalidate(t1); // a late 401 from a call that used t1
    expect((await cache.get()).reveal()).toBe("t2");
    expect(cache.refreshCount).toBe(2);
  });

  it("a failed refresh is not cached", async () => {
    let fail = true;
    const cache = new TokenCache(() =>
      fail ? Promise.reject(new Error("down")) : Promise.resolve({ token: new Secret("ok"), expiresIn: 60 }),
    );
    await expect(cache.get()).rejects.toThrow("down");
    fail = false;
    expect((await cache.get()).reveal()).toBe("ok");
  });

  it("a caller's abort stops its wait without failing the others", async () => {
    const p = counter(3600);
    p.gate.hold = true;
    const cache = new TokenCache(p.provider);
    const controller = new AbortController();
    const aborted = cache.get(controller.signal);
    const other = cache.get();
    controller.abort(new Error("stop"));
    await expect(aborted).rejects.toThrow("stop");
    p.release();
    expect((await other).reveal()).toBe("t1");
  });

  it("uses a primed token until it nears expiry, then fetches; reports each fetched token", async () => {
    let now = 1_000_000;
    const p = counter(3600);
    const cache = new TokenCache(p.provider, () => now);
    const fresh: number[] = [];
    cache.onFresh((k) => fresh.push(k.expiresAtMs));
    cache.prime({ token: new Secret("kept"), expiresAtMs: now + 600_000 });
    expect(cache.primed).toBe(true);
    expect((await cache.get()).reveal()).toBe("kept");
    expect(p.calls()).toBe(0);
    now += 600_000 - 30_000; // within the refresh margin
    expect((await cache.get()).reveal()).toBe("t1");
    expect(cache.primed).toBe(false);
    expect(fresh).toEqual([now + 3_600_000]);
  });

  it("ignores an expired primed token", async () => {
    const p = counter(3600);
    const cache = new TokenCache(p.provider, () => 5000);
    cache.prime({ token: new Secret("old"), expiresAtMs: 4000 });
    expect(cache.primed).toBe(false);
    expect((await cache.get()).reveal()).toBe("t1");
  });
});
