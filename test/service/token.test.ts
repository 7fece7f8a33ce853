import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAdmin } from "../../src/server/index.js";
import {
  Api,
  exchange,
  expectOAuthError,
  granted,
  Harness,
  tokenFor,
  type AppCredentials,
  type InjectedService,
} from "./service-harness.js";

const h = new Harness();
let service: InjectedService;
let dataDir: string;
let app: AppCredentials;

beforeAll(async () => {
  service = await h.inject();
  dataDir = service.dataDir;
  app = h.app(dataDir, ["shared.health.read", "shared.blob.upload"]);
});
afterAll(() => h.cleanup());

const grant = (over: Record<string, string> = {}) => ({
  grant_type: "client_credentials",
  client_id: app.clientId,
  client_secret: app.clientSecret,
  scope: "shared.health.read",
  ...over,
});

async function health(token: string) {
  return new Api(service, token, app.modelId).call("GET", "/api/shared/health");
}

describe("token exchange", () => {
  it("issues a Bearer token with the requested scope, no-store", async () => {
    const r = await exchange(service, grant());
    expect(r.status).toBe(200);
    expect(r.headers.get("cache-control")).toBe("no-store");
    const token = granted(r);
    expect(r.body).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "shared.health.read" });
    expect(token.access_token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect((await health(token.access_token)).status).toBe(200);
  });

  it("an empty scope grants every scope assigned to the application", async () => {
    const r = await exchange(service, grant({ scope: "" }));
    expect(r.status).toBe(200);
    expect(granted(r).scope?.split(" ").sort()).toEqual(["shared.blob.upload", "shared.health.read"]);
  });

  it("accepts client credentials by HTTP Basic too", async () => {
    const response = await service.fetch(`${service.url}/api/authorization/exchange`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString("base64")}`,
      },
      body: "grant_type=client_credentials",
    });
    expect(response.status).toBe(200);
  });

  it.each([
    ["grant_type", { grant_type: "" }],
    ["client_id", { client_id: "" }],
    ["client_secret", { client_secret: "" }],
  ])("a missing %s is invalid_request", async (field, over) => {
    const r = await exchange(service, grant(over));
    const error = expectOAuthError(r, 400);
    expect(error.error).toBe("invalid_request");
    expect(error.error_description).toContain(field);
    expect(r.headers.get("cache-control")).toBe("no-store");
  });

  it("a JSON body is invalid_request (the endpoint is form-encoded)", async () => {
    const error = expectOAuthError(await exchange(service, grant(), "application/json"), 400);
    expect(error.error).toBe("invalid_request");
    expect(error.error_description).toContain("application/x-www-form-urlencoded");
  });

  it("a repeated field is invalid_request", async () => {
    const response = await service.fetch(`${service.url}/api/authorization/exchange`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `grant_type=client_credentials&client_id=${app.clientId}&client_id=x&client_secret=${app.clientSecret}`,
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe("invalid_request");
  });

  it("another grant type is unsupported_grant_type", async () => {
    const r = await exchange(service, grant({ grant_type: "password" }));
    expect(expectOAuthError(r, 400).error).toBe("unsupported_grant_type");
  });

  it("unknown client and wrong secret get the same invalid_client answer", async () => {
    const unknown = await exchange(service, grant({ client_id: "mdps-nobody" }));
    const wrong = await exchange(service, grant({ client_secret: `${app.clientSecret}x` }));
    for (const r of [unknown, wrong]) expect(expectOAuthError(r, 401).error).toBe("invalid_client");
    expect(unknown.body).toEqual(wrong.body);
    expect(JSON.stringify(wrong.body)).not.toContain(app.clientSecret);
  });

  it("an unknown or unassigned scope is invalid_scope", async () => {
    const unknown = await exchange(service, grant({ scope: "shared.health.read made.up" }));
    const unknownError = expectOAuthError(unknown, 400);
    expect(unknownError.error).toBe("invalid_scope");
    expect(unknownError.error_description).toContain("made.up");
    const unassigned = await exchange(service, grant({ scope: "shared.health.read ml.preprocessing.execute" }));
    const unassignedError = expectOAuthError(unassigned, 400);
    expect(unassignedError.error).toBe("invalid_scope");
    expect(unassignedError.error_description).toContain("ml.preprocessing.execute");
  });

  it("after regeneration the old secret fails at once, its tokens live on", async () => {
    const own = h.app(dataDir, ["shared.health.read"]);
    const oldToken = await tokenFor(service, own);
    const admin = openAdmin(dataDir);
    const { client_secret: newSecret } = admin.regenerateSecret(own.clientId);
    admin.close();
    expect(newSecret).not.toBe(own.clientSecret);
    const old = await exchange(service, {
      grant_type: "client_credentials",
      client_id: own.clientId,
      client_secret: own.clientSecret,
    });
    expect(expectOAuthError(old, 401).error).toBe("invalid_client");
    expect((await health(oldToken)).status).toBe(200);
    expect(await tokenFor(service, { ...own, clientSecret: newSecret })).toBeTruthy();
  });

  it("deleting an application revokes its tokens", async () => {
    const own = h.app(dataDir, ["shared.health.read"]);
    const token = await tokenFor(service, own);
    expect((await health(token)).status).toBe(200);
    const admin = openAdmin(dataDir);
    admin.deleteApp(own.clientId);
    admin.close();
    expect((await health(token)).status).toBe(401);
    expect(
      (
        await exchange(service, {
          grant_type: "client_credentials",
          client_id: own.clientId,
          client_secret: own.clientSecret,
        })
      ).status,
    ).toBe(401);
  });

  it("a token expires after tokenTtlSeconds", async () => {
    const short = await h.inject({ tokenTtlSeconds: 1 });
    const own = h.app(short.dataDir, ["shared.health.read"]);
    const r = await exchange(short, {
      grant_type: "client_credentials",
      client_id: own.clientId,
      client_secret: own.clientSecret,
    });
    const token = granted(r);
    expect(token.expires_in).toBe(1);
    const api = new Api(short, token.access_token, own.modelId);
    expect((await api.call("GET", "/api/shared/health")).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const expired = await api.call("GET", "/api/shared/health");
    expect(expired.status).toBe(401);
    expect(expired.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  it("a token is valid only at the service (data dir and region) that issued it", async () => {
    const token = await tokenFor(service, app, "shared.health.read");
    const other = await h.inject();
    h.app(other.dataDir, ["shared.health.read"]);
    expect((await new Api(other, token, app.modelId).call("GET", "/api/shared/health")).status).toBe(401);
    // Same data dir, another region: the token of region "local" is not valid in "uk1".
    const shared = await h.inject();
    const sharedApp = h.app(shared.dataDir, ["shared.health.read"]);
    const localToken = await tokenFor(shared, sharedApp);
    await shared.close();
    const uk1 = await h.inject({ dataDir: shared.dataDir, region: "uk1" });
    expect((await new Api(uk1, localToken, sharedApp.modelId).call("GET", "/api/shared/health")).status).toBe(401);
    expect(
      (await new Api(uk1, await tokenFor(uk1, sharedApp), sharedApp.modelId).call("GET", "/api/shared/health")).status,
    ).toBe(200);
  });
});
