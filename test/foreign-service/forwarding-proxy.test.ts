import { request as httpRequest } from "node:http";
import { ProxyAgent, fetch as undiciFetch } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { startForwardingProxy, type ForwardingProxy } from "./forwarding-proxy.js";
import { startForeignService, type ForeignService } from "./index.js";

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((item) => item.close()));
});

async function both(delayMs = 0): Promise<{ service: ForeignService; proxy: ForwardingProxy }> {
  const service = await startForeignService();
  const proxy = await startForwardingProxy({ delayMs });
  open.push(service, proxy);
  return { service, proxy };
}

/** An absolute-form request, as an HTTP_PROXY client sends for an http:// target. */
function viaAbsoluteForm(proxy: ForwardingProxy, target: string): Promise<{ status: number; body: string }> {
  const proxyUrl = new URL(proxy.url);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: proxyUrl.hostname, port: proxyUrl.port, path: target, method: "GET" },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on("error", reject);
    request.end();
  });
}

describe("forwarding proxy", () => {
  it("forwards absolute-form requests and counts them", async () => {
    const { service, proxy } = await both();
    const response = await viaAbsoluteForm(proxy, `${service.url}/api/shared/health`);
    expect(response.status).toBe(401);
    expect(JSON.parse(response.body)).toMatchObject({ status: 401, title: "Unauthorized" });
    expect(proxy.requests()).toEqual([{ kind: "forward", method: "GET", target: `${service.url}/api/shared/health` }]);
    expect(service.requests()).toHaveLength(1);
  });

  it("tunnels CONNECT, as undici's ProxyAgent does by default", async () => {
    const { service, proxy } = await both();
    const dispatcher = new ProxyAgent({ uri: proxy.url });
    open.push(dispatcher);
    const response = await undiciFetch(`${service.url}/api/authorization/exchange`, {
      method: "POST",
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: service.clientId,
        client_secret: service.clientSecret,
      }),
      dispatcher,
    });
    expect(response.status).toBe(200);
    expect(proxy.requests()).toEqual([{ kind: "connect", method: "CONNECT", target: new URL(service.url).host }]);
  });

  it("forwards without a tunnel when ProxyAgent has proxyTunnel false", async () => {
    const { service, proxy } = await both();
    const dispatcher = new ProxyAgent({ uri: proxy.url, proxyTunnel: false });
    open.push(dispatcher);
    const response = await undiciFetch(`${service.url}/api/shared/health`, { dispatcher });
    expect(response.status).toBe(401);
    expect(proxy.requests().map((r) => r.kind)).toEqual(["forward"]);
  });

  it("adds its delay each way", async () => {
    const { service, proxy } = await both(50);
    const started = performance.now();
    await viaAbsoluteForm(proxy, `${service.url}/api/shared/health`);
    expect(performance.now() - started).toBeGreaterThanOrEqual(95);
  });
});
