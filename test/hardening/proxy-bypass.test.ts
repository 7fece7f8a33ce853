/**
 * Loopback never goes through a proxy from the environment (as Go's ProxyFromEnvironment):
 * with HTTP_PROXY and HTTPS_PROXY set and no NO_PROXY, Session.local() sends nothing
 * through a recording proxy (no client secret, no bearer token there), and a proxy that
 * swallows every connection does not make it hang. Session.connect() to a loopback URL
 * is direct too, unless the caller names a proxy in the `proxy` option.
 */
import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { isLoopbackHost } from "../../src/client/network.js";
import { Session } from "../../src/index.js";
import { startForwardingProxy, type ForwardingProxy } from "../foreign-service/forwarding-proxy.js";
import { tempDir } from "../session/session-fixture.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function recordingProxy(): Promise<ForwardingProxy> {
  const proxy = await startForwardingProxy();
  cleanups.push(() => proxy.close());
  return proxy;
}

/** A "proxy" that accepts connections and never answers: what made Session.local() hang before. */
async function blackHole(): Promise<{ url: string; connections: () => number }> {
  let connections = 0;
  const sockets = new Set<import("node:net").Socket>();
  const server: Server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: () => connections };
}

function proxyEnv(url: string): void {
  for (const name of ["HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"]) vi.stubEnv(name, url);
  vi.stubEnv("NO_PROXY", "");
  vi.stubEnv("no_proxy", "");
}

async function localSession(): Promise<Session> {
  const dir = tempDir("mdps-proxy-");
  cleanups.push(() => dir.remove());
  const session = await Session.local({ dataDir: dir.path, service: { jobWorkers: 1 } });
  cleanups.push(() => session.close());
  return session;
}

describe("loopback and the embedded service bypass proxies from the environment", () => {
  it("Session.local() sends nothing through HTTP_PROXY / HTTPS_PROXY (no secret, no token)", async () => {
    const proxy = await recordingProxy();
    proxyEnv(proxy.url);
    const session = await localSession();
    await session.health();
    const blob = await session.upload(new TextEncoder().encode("a,b\n1,2\n"), { name: "p.csv", recordType: "csv" });
    expect(new TextDecoder().decode(await blob.bytes())).toBe("a,b\n1,2\n");
    expect(proxy.requests()).toEqual([]);
  });

  it("Session.local() works with a proxy that never answers", async () => {
    const hole = await blackHole();
    proxyEnv(hole.url);
    const session = await localSession();
    expect((await session.health()).status).toBeDefined();
    expect(hole.connections()).toBe(0);
  });

  it("Session.connect() to a loopback URL goes direct with HTTP_PROXY set; through a proxy named in `proxy`", async () => {
    const local = await localSession();
    const proxy = await recordingProxy();
    proxyEnv(proxy.url);
    const creds = local.client.config;
    const settings = {
      baseUrl: local.baseUrl,
      clientId: creds.clientId,
      clientSecret: creds.clientSecret,
      modelId: local.modelId,
      configFile: false,
      journal: false,
    } as const;
    const direct = await Session.connect(settings);
    await direct.health();
    await direct.close();
    expect(proxy.requests()).toEqual([]);

    const named = await Session.connect({ ...settings, proxy: { httpProxy: proxy.url } });
    await named.health();
    await named.close();
    expect(proxy.requests().length).toBeGreaterThan(0);
  });

  it("isLoopbackHost: localhost, 127/8, ::1 and mapped forms; nothing else", () => {
    for (const host of [
      "localhost",
      "LOCALHOST",
      "a.localhost",
      "127.0.0.1",
      "127.1.2.3",
      "[::1]",
      "::1",
      "localhost.",
    ])
      expect(isLoopbackHost(host), host).toBe(true);
    expect(isLoopbackHost(new URL("http://[::ffff:127.0.0.1]/").hostname)).toBe(true);
    expect(isLoopbackHost(new URL("http://[0:0:0:0:0:0:0:1]/").hostname)).toBe(true);
    for (const host of ["localhost.example", "127.example", "128.0.0.1", "10.0.0.1", "[::2]", "example.com", "0.0.0.0"])
      expect(isLoopbackHost(host), host).toBe(false);
  });
});
