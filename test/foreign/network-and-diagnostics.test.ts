/**
 * Corporate networks (a forwarding proxy on loopback, extra CA certificates) and
 * `session.whoami()` / `session.doctor()` against the reference service and the foreign one.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SESSION_SCOPES, WORKFLOW_SCOPES } from "../../src/client/auth.js";
import { MdpsClient } from "../../src/client/client.js";
import { doctor } from "../../src/client/diagnostics.js";
import { caCertificates, proxySettings } from "../../src/client/network.js";
import { ConfigError, Session } from "../../src/index.js";
import { useForeignServices } from "../foreign-service/calls.js";
import { startForwardingProxy, type ForwardingProxy } from "../foreign-service/forwarding-proxy.js";
import { tempDir } from "../session/session-fixture.js";
import { connectTo, runWorkflow, SCALED_A } from "./foreign-helpers.js";

const start = useForeignServices({ jobDelayMs: 60 });
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function proxy(): Promise<ForwardingProxy> {
  const p = await startForwardingProxy();
  cleanups.push(() => p.close());
  return p;
}

describe("HTTP_PROXY / NO_PROXY", () => {
  it("the whole workflow goes through the proxy named in the proxy option (loopback too)", async () => {
    const service = await start();
    const p = await proxy();
    const session = await connectTo(service, { proxy: { httpProxy: p.url } });
    cleanups.push(() => session.close());
    const { output } = await runWorkflow(session);
    expect((output["a"] as { values: number[] }).values[0]).toBeCloseTo(SCALED_A[0]!, 9);
    const host = new URL(service.url).host;
    expect(p.requests().length).toBeGreaterThan(0);
    expect(p.requests().every((r) => r.target === host || r.target.startsWith(service.url))).toBe(true);
    expect(service.requests().length).toBeGreaterThan(5);
  });

  it("reads the process environment when no env is given, and NO_PROXY sends a host direct", async () => {
    const service = await start();
    // Loopback never goes through a proxy from the environment: a name only the proxy knows does.
    const p = await startForwardingProxy({ hosts: { "mdps-service.test": "127.0.0.1" } });
    cleanups.push(() => p.close());
    vi.stubEnv("HTTP_PROXY", p.url);
    vi.stubEnv("NO_PROXY", "");
    cleanups.push(() => {
      vi.unstubAllEnvs();
    });
    const viaProxy = await Session.connect({
      baseUrl: service.baseUrl.replace("127.0.0.1", "mdps-service.test"),
      clientId: service.clientId,
      clientSecret: service.clientSecret,
      modelId: service.modelId,
      configFile: false,
    });
    await viaProxy.health();
    await viaProxy.close();
    const counted = p.requests().length;
    expect(counted).toBeGreaterThan(0);

    const direct = await connectTo(service, { env: { HTTP_PROXY: p.url, NO_PROXY: "127.0.0.1" } });
    await direct.health();
    await direct.close();
    expect(p.requests()).toHaveLength(counted);
    expect(proxySettings({ env: { https_proxy: "http://a:1", HTTPS_PROXY: "http://b:2" } }).httpsProxy).toBe(
      "http://a:1",
    );
    expect(proxySettings({ proxy: false, env: { HTTP_PROXY: "http://a:1" } }).httpProxy).toBe("");
  });
});

describe("extra CA certificates", () => {
  it("trusts a private CA given as the ca option (file or PEM), and refuses it without", async () => {
    const dir = tempDir("mdps-ca-");
    cleanups.push(() => dir.remove());
    const key = join(dir.path, "key.pem");
    const cert = join(dir.path, "cert.pem");
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=127.0.0.1",
        "-addext",
        "subjectAltName=IP:127.0.0.1",
        "-keyout",
        key,
        "-out",
        cert,
      ],
      { stdio: "ignore" },
    );
    const server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" }).end('{"status":"Healthy"}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const options = {
      baseUrl: url,
      clientId: "c",
      clientSecret: "s",
      modelId: "00000000-0000-4000-8000-000000000001",
      configFile: false as const,
      env: {},
      retry: { maxRetries: 0 },
    };

    const trusting = MdpsClient.create({ ...options, ca: cert });
    cleanups.push(() => trusting.close());
    const health = await trusting.health.get().catch((e: unknown) => e);
    // The token endpoint is this server too; it answers the health JSON, which is no token:
    // what matters is that TLS was accepted (an UnexpectedResponseError, not a connection error).
    expect((health as Error).name).toBe("UnexpectedResponseError");

    const refusing = MdpsClient.create(options);
    cleanups.push(() => refusing.close());
    const refused = await refusing.health.get().catch((e: unknown) => e);
    expect((refused as Error).name).toBe("ConnectionError");

    expect(caCertificates({ ca: readFileSync(cert, "utf8") })!.at(-1)).toContain("BEGIN CERTIFICATE");
    expect(() => caCertificates({ ca: join(dir.path, "missing.pem") })).toThrow(ConfigError);
  });
});

describe("whoami and doctor", () => {
  it("against the reference service: granted scopes, every endpoint allowed, all checks ok", async () => {
    const dir = tempDir();
    cleanups.push(() => dir.remove());
    const session = await Session.local({ dataDir: dir.path });
    cleanups.push(() => session.close());
    const me = await session.whoami();
    expect(me.modelId).toBe(session.modelId);
    expect(me.scopesFrom).toBe("token response");
    expect(me.endpoints).toHaveLength(13);
    expect(me.endpoints.every((e) => e.allowed === true)).toBe(true);
    expect(String(me)).toContain("GET /api/shared/health");
    expect(me.toHTML()).toContain("<b>mdps whoami</b>");
    expect(JSON.stringify(me)).not.toContain("secret");

    const report = await session.doctor();
    expect(report.checks.map((c) => [c.check, c.status])).toEqual([
      ["portal answers", "ok"],
      ["token", "ok"],
      ["model API answers", "ok"],
      ["region", "ok"],
      ["scopes", "ok"],
    ]);
    expect(report.ok).toBe(true);
    expect(report.toHTML()).toContain("everything answers");

    // The same service configured for another region: a failing line with its remedy.
    const other = new MdpsClient({ ...session.client.config, region: "uk1" });
    cleanups.push(() => other.close());
    const mismatch = await doctor(other);
    expect(mismatch.ok).toBe(false);
    expect(mismatch.checks.find((c) => c.check === "region")).toMatchObject({
      status: "failed",
      detail: "configured uk1, but the service reports local",
      remedy: expect.stringContaining("MDPS_REGION") as string,
    });
  });

  it("against the foreign service: scopes as requested, region not reported; unconfigured scopes are asked for explicitly", async () => {
    const service = await start();
    const session = await connectTo(service, { region: "uk1" });
    cleanups.push(() => session.close());
    const me = await session.whoami();
    expect(me.scopesFrom).toBe("requested (the service did not say)");
    expect(me.endpoints.every((e) => e.allowed === true)).toBe(true);
    const report = await session.doctor();
    expect(report.checks.find((c) => c.check === "region")?.status).toBe("warning");
    expect(report.checks.find((c) => c.check === "model API answers")?.detail).toContain("declares no extensions");
    expect(report.ok).toBe(true);

    // No scopes configured: the token request still names them (the interface asks for that).
    const unscoped = await connectTo(service, { scopes: [] });
    cleanups.push(() => unscoped.close());
    expect((await unscoped.whoami()).requestedScopes).toEqual(SESSION_SCOPES);
    expect((await unscoped.doctor()).checks.find((c) => c.check === "scopes")?.status).toBe("ok");
  });

  it("an application without every Session scope gets a token for every scope it holds", async () => {
    const service = await start({ assignedScopes: [...WORKFLOW_SCOPES, "shared.health.read"] });
    const session = await connectTo(service, { scopes: [] });
    cleanups.push(() => session.close());
    expect([...(await session.whoami()).requestedScopes].sort()).toEqual(
      [...WORKFLOW_SCOPES, "shared.health.read"].sort(),
    );
    const { output } = await runWorkflow(session);
    expect(output.columns).toEqual(["a", "label", "b"]);
  });

  it("an application without the workflow's scopes gets a token for those it has; doctor names the rest", async () => {
    const service = await start({ assignedScopes: ["shared.blob.upload", "shared.health.read"] });
    const session = await connectTo(service, { scopes: [] });
    cleanups.push(() => session.close());
    const scopes = (await session.doctor()).checks.find((c) => c.check === "scopes");
    expect(scopes?.detail).toMatch(/lacks shared\.blob\.download, ml\.preprocessing\.execute, ml\.preprocessing\.read/);
  });
});
