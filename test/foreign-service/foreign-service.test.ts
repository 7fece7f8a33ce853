import { describe, expect, it } from "vitest";
import {
  bearer,
  blobForm,
  download,
  EVERY_SCOPE,
  exchange,
  getJson,
  postJson,
  preprocessingRequest,
  SAMPLE_CSV,
  sendPreprocessing,
  SHARED_SCOPES,
  token,
  upload,
  uploadCsv,
  useForeignServices,
} from "./calls.js";

const start = useForeignServices();

describe("token exchange", () => {
  it("issues a bearer token for the client credentials form", async () => {
    const service = await start();
    const response = await exchange(service, {
      grant_type: "client_credentials",
      client_id: service.clientId,
      client_secret: service.clientSecret,
      scope: EVERY_SCOPE,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(["access_token", "expires_in", "token_type"]);
    expect(body).toMatchObject({ token_type: "Bearer", expires_in: 3600 });
  });

  it("refuses in plain text: wrong secret, wrong grant, unassigned scope, JSON body", async () => {
    const service = await start({ assignedScopes: ["shared.health.read"] });
    const base = { grant_type: "client_credentials", client_id: service.clientId, client_secret: service.clientSecret };
    const cases: [Record<string, string>, number, string][] = [
      [{ ...base, client_secret: "nope" }, 401, "invalid client"],
      [{ ...base, client_id: "someone-else" }, 401, "invalid client"],
      [{ ...base, grant_type: "password" }, 400, "unsupported grant type"],
      [
        { ...base, scope: "shared.health.read ml.preprocessing.execute" },
        400,
        "invalid scope: ml.preprocessing.execute",
      ],
    ];
    for (const [fields, status, text] of cases) {
      const response = await exchange(service, fields);
      expect(response.status).toBe(status);
      expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
      expect(await response.text()).toBe(text);
    }
    const json = await fetch(`${service.url}/api/authorization/exchange`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(base),
    });
    expect(json.status).toBe(415);
    expect(json.headers.get("content-type")).toMatch(/^text\/plain/);
  });

  it("tokenErrors html answers an HTML page", async () => {
    const service = await start({ tokenErrors: "html" });
    const response = await exchange(service, {
      grant_type: "client_credentials",
      client_id: service.clientId,
      client_secret: "x",
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await response.text()).toContain("<h1>Unauthorized</h1><p>invalid client</p>");
  });

  it("a regenerated secret replaces the old one; issued tokens stay valid", async () => {
    const service = await start();
    const issued = await token(service);
    const secret = service.regenerateSecret();
    const old = await exchange(service, {
      grant_type: "client_credentials",
      client_id: service.clientId,
      client_secret: service.clientSecret,
    });
    expect(old.status).toBe(401);
    const fresh = await exchange(service, {
      grant_type: "client_credentials",
      client_id: service.clientId,
      client_secret: secret,
    });
    expect(fresh.status).toBe(200);
    expect((await getJson(`${service.url}/api/shared/health`, issued)).status).toBe(200);
  });

  it("an expired token is a 401 ProblemDetails", async () => {
    const service = await start({ tokenLifetimeSeconds: 0 });
    const response = await getJson(`${service.url}/api/shared/health`, await token(service));
    expect(response.status).toBe(401);
    expect(((await response.json()) as { detail: string }).detail).toMatch(/expired/);
  });
});

describe("scopes", () => {
  it("an empty scope grants shared.* only; preprocessing needs its scopes in the request", async () => {
    const service = await start();
    const sharedOnly = await token(service, "");
    const blobId = await uploadCsv(service, sharedOnly, SAMPLE_CSV);
    const refused = await sendPreprocessing(service, sharedOnly, preprocessingRequest(service, blobId));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      message: "insufficient scope: this operation requires ml.preprocessing.execute",
    });
    const allowed = await sendPreprocessing(service, await token(service), preprocessingRequest(service, blobId));
    expect(allowed.status).toBe(200);
  });

  it("a token has exactly the scopes asked for", async () => {
    const service = await start();
    const preprocessingOnly = await token(service, "ml.preprocessing.execute ml.preprocessing.read");
    expect(
      (
        await upload(
          service,
          preprocessingOnly,
          blobForm({ File: SAMPLE_CSV, Name: "n", RecordType: "Csv", AccessTier: "Hot" }),
        )
      ).status,
    ).toBe(403);
    expect((await getJson(`${service.url}/api/shared/health`, preprocessingOnly)).status).toBe(403);
  });

  it("requirePreprocessingScopes false lets a shared-only token send", async () => {
    const service = await start({ requirePreprocessingScopes: false });
    const sharedOnly = await token(service, SHARED_SCOPES);
    const blobId = await uploadCsv(service, sharedOnly, SAMPLE_CSV);
    expect((await sendPreprocessing(service, sharedOnly, preprocessingRequest(service, blobId))).status).toBe(200);
  });
});

describe("health", () => {
  it("401 ProblemDetails without a token; status only with one", async () => {
    const service = await start();
    const anonymous = await fetch(`${service.url}/api/shared/health`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(anonymous.headers.get("www-authenticate")).toMatch(/^Bearer/);
    const problem = (await anonymous.json()) as Record<string, unknown>;
    expect(Object.keys(problem).sort()).toEqual(["detail", "instance", "status", "title", "type"]);
    expect(problem).toMatchObject({ status: 401, instance: "/api/shared/health" });
    const ok = await getJson(`${service.url}/api/shared/health`, await token(service));
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ status: "Healthy" });
  });
});

describe("blobs", () => {
  it("uploads with the interface's part names and answers a camelCase record", async () => {
    const service = await start();
    const accessToken = await token(service);
    const response = await upload(
      service,
      accessToken,
      blobForm({
        File: SAMPLE_CSV,
        Name: "in.csv",
        RecordType: "Csv",
        AccessTier: "Cool",
        Description: "d",
        Tags: ["x", "y"],
      }),
    );
    expect(response.status).toBe(200);
    const record = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(record).sort()).toEqual([
      "accessTier",
      "blobId",
      "createdOn",
      "name",
      "recordType",
      "sizeBytes",
    ]);
    expect(record).toMatchObject({
      name: "in.csv",
      recordType: "Csv",
      accessTier: "Cool",
      sizeBytes: SAMPLE_CSV.length,
    });
    expect(await download(service, accessToken, String(record["blobId"]))).toBe(SAMPLE_CSV);
  });

  it("refuses other part names, other words and other encodings with a plain JSON message", async () => {
    const service = await start();
    const accessToken = await token(service);
    const lowercase = new FormData();
    lowercase.append("File", new Blob([SAMPLE_CSV]), "x.csv");
    lowercase.append("name", "x");
    lowercase.append("RecordType", "Csv");
    lowercase.append("AccessTier", "Hot");
    const cases: [FormData, string][] = [
      [lowercase, "Name is required"],
      [blobForm({ Name: "x", RecordType: "Csv", AccessTier: "Hot" }), "File is required"],
      [
        blobForm({ File: SAMPLE_CSV, Name: "x", RecordType: "csv", AccessTier: "Hot" }),
        "RecordType 'csv' is not one of Csv",
      ],
      [
        blobForm({ File: SAMPLE_CSV, Name: "x", RecordType: "Json", AccessTier: "Hot" }),
        "RecordType 'Json' is not one of Csv",
      ],
      [
        blobForm({ File: SAMPLE_CSV, Name: "x", RecordType: "Csv", AccessTier: "hot" }),
        "AccessTier 'hot' is not one of Hot, Cool, Archive",
      ],
    ];
    for (const [form, message] of cases) {
      const response = await upload(service, accessToken, form);
      expect(response.status).toBe(400);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      expect(await response.json()).toEqual({ message });
    }
    const stringFile = new FormData();
    stringFile.append("File", SAMPLE_CSV);
    expect((await upload(service, accessToken, stringFile)).status).toBe(400);
    const notMultipart = await postJson(
      `${service.url}/api/model/${service.modelId}/shared/blob/upload`,
      accessToken,
      {},
    );
    expect(notMultipart.status).toBe(415);
  });

  it("recordTypes and accessTiers switch the vocabularies", async () => {
    const service = await start({ recordTypes: ["Csv", "Json", "Parquet"], accessTiers: ["hot", "cold"] });
    const accessToken = await token(service);
    const form = blobForm({ File: "[]", Name: "x.json", RecordType: "Json", AccessTier: "cold" });
    expect((await upload(service, accessToken, form)).status).toBe(200);
    expect(
      (
        await upload(
          service,
          accessToken,
          blobForm({ File: SAMPLE_CSV, Name: "x", RecordType: "Csv", AccessTier: "Hot" }),
        )
      ).status,
    ).toBe(400);
  });

  it("updates in place, deletes with an empty 200, then 404s", async () => {
    const service = await start();
    const accessToken = await token(service);
    const blobId = await uploadCsv(service, accessToken, SAMPLE_CSV);
    const blobUrl = `${service.url}/api/model/${service.modelId}/shared/blob/${blobId}`;
    const updated = await fetch(`${blobUrl}/update`, {
      method: "PUT",
      headers: bearer(accessToken),
      body: blobForm({ File: "a\n1\n", Name: "small.csv", RecordType: "Csv", AccessTier: "Archive" }),
    });
    expect(updated.status).toBe(200);
    expect(await updated.json()).toMatchObject({ blobId, name: "small.csv", accessTier: "Archive", sizeBytes: 4 });
    expect(await download(service, accessToken, blobId)).toBe("a\n1\n");
    const deleted = await fetch(`${blobUrl}/delete`, { method: "DELETE", headers: bearer(accessToken) });
    expect(deleted.status).toBe(200);
    expect(await deleted.text()).toBe("");
    expect((await getJson(`${blobUrl}/download`, accessToken)).status).toBe(404);
    expect(
      (await getJson(`${service.url}/api/model/${crypto.randomUUID()}/shared/blob/${blobId}/download`, accessToken))
        .status,
    ).toBe(404);
  });
});
