import { afterAll, describe, expect, it } from "vitest";
import { encryptBuffer, generateEncryptionKey, parseEncryptionKey } from "../../src/core/crypto/index.js";
import { blobRecord, jobRecord } from "../../src/core/contract/index.js";
import { Api, exchange, granted, Harness, json, preprocessingBody } from "./service-harness.js";

const h = new Harness();
afterAll(() => h.cleanup());

describe("request logging", () => {
  it("never writes a client secret, token or encryption key", async () => {
    const lines: string[] = [];
    const service = await h.inject({ logger: true, logDestination: { write: (line: string) => lines.push(line) } });
    const app = h.app(service.dataDir);
    const wrongSecret = `${app.clientSecret.slice(0, -4)}XXXX`;
    const inputKey = generateEncryptionKey();
    const outputKey = generateEncryptionKey();

    const token = granted(
      await exchange(service, {
        grant_type: "client_credentials",
        client_id: app.clientId,
        client_secret: app.clientSecret,
      }),
    ).access_token;
    await exchange(service, {
      grant_type: "client_credentials",
      client_id: app.clientId,
      client_secret: wrongSecret,
    });
    await service.fetch(`${service.url}/api/authorization/exchange`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString("base64")}`,
      },
      body: "grant_type=client_credentials",
    });
    const api = new Api(service, token, app.modelId);
    await new Api(service, `${token}x`, app.modelId).call("GET", "/api/shared/health");
    const blob = json(
      blobRecord,
      await api.upload(encryptBuffer(parseEncryptionKey(inputKey), Buffer.from("a,b\n1,2\n3,5\n"))),
    );
    const sent = await api.call(
      "POST",
      "/api/ml/preprocessing/job/send",
      preprocessingBody(app.modelId, blob.id, {
        input_encryption_key: inputKey,
        output: [{ name: "o.csv", encryption_key: outputKey }],
      }),
    );
    await api.waitForJob(json(jobRecord, sent).id);
    // A body that fails to parse, with a key inside: its text must not reach the log either.
    await api.call("POST", "/api/ml/preprocessing/job/send", `{"input_encryption_key": "${inputKey}", `);
    await api.call(
      "POST",
      "/api/ml/preprocessing/job/send",
      preprocessingBody(app.modelId, blob.id, { input_encryption_key: `${inputKey}!` }),
    );
    await service.close();

    const log = lines.join("");
    expect(lines.length).toBeGreaterThan(10);
    expect(log).toContain("incoming request");
    expect(log).toContain("/api/authorization/exchange");
    for (const secret of [
      app.clientSecret,
      wrongSecret,
      token,
      inputKey,
      outputKey,
      Buffer.from(`${app.clientId}:${app.clientSecret}`).toString("base64"),
    ]) {
      expect(log).not.toContain(secret);
    }
  });
});
