/**
 * A 403 says what to fix, read from the service's words: a model id the application may not
 * use (the commoner mistake) is not a missing scope. Against the real service on 127.0.0.1;
 * a service that says neither is a plain text answer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PermissionDeniedError, Session } from "../../src/index.js";
import { makeAPIError } from "../../src/client/error-factory.js";
import { openAdmin, type RunningService } from "../../src/server/index.js";
import { ServiceStarter } from "../harness/service-starter.js";
import { SCOPES } from "../../src/core/contract/scopes.js";
import { tempDir } from "./session-fixture.js";

const starter = new ServiceStarter();
const dir = tempDir("mdps-forbidden-");
let service: RunningService;
let app: {
  client_id: string;
  client_secret: string;
  model_id: string;
  other_model: string;
  health_only: { client_id: string; client_secret: string };
};

beforeAll(async () => {
  const admin = openAdmin(dir.path);
  try {
    const { model_id } = admin.createModel("mine");
    const other = admin.createModel("someone else's").model_id;
    const full = admin.addApp({ modelId: model_id, name: "full", scopes: [...SCOPES] });
    const health = admin.addApp({ modelId: model_id, name: "health", scopes: ["shared.health.read"] });
    app = { ...full, model_id, other_model: other, health_only: health };
  } finally {
    admin.close();
  }
  service = await starter.start({ dataDir: dir.path, host: "127.0.0.1", port: 0 });
});

afterAll(async () => {
  await starter.cleanup();
  dir.remove();
});

async function uploadError(
  modelId: string,
  credentials = app as { client_id: string; client_secret: string },
  scopes?: string[],
) {
  const session = await Session.connect({
    baseUrl: service.url,
    clientId: credentials.client_id,
    clientSecret: credentials.client_secret,
    modelId,
    ...(scopes ? { scopes } : {}),
  });
  try {
    return await session.upload(new TextEncoder().encode("a\n1\n"), { name: "x.csv", recordType: "csv" }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
  } finally {
    await session.close();
  }
}

describe("a 403", () => {
  for (const [what, modelId] of [
    ["another model's id", () => app.other_model],
    ["an id no model has", () => "6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f"],
  ] as const) {
    it(`for ${what}: the model id is not known to the application, and where to set the right one`, async () => {
      const err = await uploadError(modelId());
      expect(err).toBeInstanceOf(PermissionDeniedError);
      // The service says the model id is not the application's; mdps adds where to set it, once.
      expect(err!.message).toContain(`The path modelId ${modelId()} is not the model of this token's application.`);
      expect(err!.message).toContain(
        "Set MDPS_MODEL_ID (modelId in Session.connect(), model_id in the config profile; `mdps configure` asks for it) to the one the portal shows on the application's page.",
      );
      expect((err as PermissionDeniedError).remedy).toMatch(/^Set MDPS_MODEL_ID/);
      expect(err!.message.match(/registered for/g)).toHaveLength(1);
      expect(err!.message).not.toMatch(/missing scope/i);
    });
  }

  it("for a missing scope: the scope named, and the scope's remedy only", async () => {
    const err = await uploadError(app.model_id, app.health_only, ["shared.health.read"]);
    expect(err).toBeInstanceOf(PermissionDeniedError);
    expect(err!.message).toContain("shared.blob.upload");
    expect(err!.message).toContain("Give the application the missing scope in the portal");
    expect(err!.message).not.toContain("MDPS_MODEL_ID");
  });

  it("from a service that says only 'Forbidden': both remedies, the model id first", () => {
    const call = `GET /api/model/${app.model_id}/shared/health`;
    const err = makeAPIError({ status: 403, body: "Forbidden", headers: { "content-type": "text/plain" }, call });
    expect(err).toBeInstanceOf(PermissionDeniedError);
    expect(err.message).toMatch(
      new RegExp(
        `The model id ${app.model_id} is not known to this application .* Or a scope is missing: give the application`,
      ),
    );
  });
});
