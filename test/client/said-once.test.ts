/**
 * A refusal says each thing once: the service's words say what was wrong and what to do,
 * and mdps adds only what they leave out (where mdps reads a setting). Wrong secret, a file
 * over the size limit and a model id that is not the application's, against the real
 * service on 127.0.0.1, as the Session, the CLI and the REPL show them.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OAuthError, PayloadTooLargeError, PermissionDeniedError, Session } from "../../src/index.js";
import { openAdmin, type RunningService } from "../../src/server/index.js";
import { SCOPES } from "../../src/core/contract/scopes.js";
import { errorOutput } from "../../repl/errors.js";
import { ensureBuilt, MAIN } from "../harness/built.js";
import { ServiceStarter } from "../harness/service-starter.js";
import { tempDir } from "../session/session-fixture.js";

const starter = new ServiceStarter();
const dir = tempDir("mdps-said-once-");
const LIMIT = 64;
let service: RunningService;
let app: { client_id: string; client_secret: string; model_id: string; other_model: string };

beforeAll(async () => {
  const admin = openAdmin(dir.path);
  try {
    const { model_id } = admin.createModel("mine");
    const other = admin.createModel("someone else's").model_id;
    app = { ...admin.addApp({ modelId: model_id, name: "full", scopes: [...SCOPES] }), model_id, other_model: other };
  } finally {
    admin.close();
  }
  service = await starter.start({ dataDir: dir.path, host: "127.0.0.1", port: 0, maxBlobBytes: LIMIT });
});

afterAll(async () => {
  await starter.cleanup();
  dir.remove();
});

function connect(over: { clientSecret?: string; modelId?: string } = {}) {
  return Session.connect({
    baseUrl: service.url,
    clientId: app.client_id,
    clientSecret: over.clientSecret ?? app.client_secret,
    modelId: over.modelId ?? app.model_id,
    env: {},
    configFile: false,
  });
}

async function uploadError(over: { clientSecret?: string; modelId?: string }, bytes: number): Promise<Error> {
  let session: Session | undefined;
  try {
    session = await connect(over);
    await session.upload(new TextEncoder().encode(`a\n${"1\n".repeat(bytes / 2)}`), {
      name: "x.csv",
      recordType: "csv",
    });
  } catch (err) {
    return err as Error;
  } finally {
    await session?.close();
  }
  throw new Error("the upload was accepted");
}

const count = (text: string, pattern: RegExp) => text.match(new RegExp(pattern.source, "gi"))?.length ?? 0;

describe("each refusal says each thing once", () => {
  it("a wrong secret: the service's reason, then only which settings to check", async () => {
    const err = await uploadError({ clientSecret: "not-the-secret-at-all" }, 2);
    expect(err).toBeInstanceOf(OAuthError);
    expect(err.message).toMatch(
      /^Token request to POST \/api\/authorization\/exchange failed with 401 invalid_client: unknown client_id or wrong client_secret \(a regenerated secret replaces the old one\)\. Check MDPS_CLIENT_ID and MDPS_CLIENT_SECRET\. \(request id [\w-]+\)$/,
    );
    expect(count(err.message, /regenerat/)).toBe(1);
    expect(count(err.message, /failed/)).toBe(1);
    expect(err.message).not.toContain("not-the-secret-at-all");
    const repl = errorOutput(err);
    expect(repl.title).toBe("401 invalid_client");
    expect(repl.hint).toBe("Check MDPS_CLIENT_ID and MDPS_CLIENT_SECRET.");
  });

  it("a file over the limit: the service's limit and remedy, no second one", async () => {
    const err = await uploadError({}, LIMIT * 2);
    expect(err).toBeInstanceOf(PayloadTooLargeError);
    expect(err.message).toContain(`larger than this service's limit of ${LIMIT} bytes. Split the dataset`);
    expect(count(err.message, /split/)).toBe(1);
    expect(count(err.message, /limit/)).toBe(2);
    const repl = errorOutput(err);
    expect(`${repl.detail} ${repl.hint ?? ""}`.match(/split/gi)).toHaveLength(1);
    expect(repl.hint).toBeUndefined();
  });

  it("a model id that is not the application's: the service's reason, then only where mdps reads it", async () => {
    const err = await uploadError({ modelId: app.other_model }, 2);
    expect(err).toBeInstanceOf(PermissionDeniedError);
    const said = err.message.slice(err.message.indexOf(" failed with "));
    expect(count(said, new RegExp(app.other_model))).toBe(1);
    expect(count(said, /registered for/)).toBe(1);
    expect(said).toContain("Set MDPS_MODEL_ID");
    const repl = errorOutput(err);
    expect(repl.hint).toMatch(/^Set MDPS_MODEL_ID .* to the one the portal shows on the application's page\.$/);
    expect(repl.hint).not.toMatch(/scope/);
  });

  it("the CLI says the wrong secret's reason once, and never the secret", async () => {
    ensureBuilt();
    const env = {
      PATH: process.env.PATH,
      HOME: dir.path,
      MDPS_BASE_URL: service.url,
      MDPS_CLIENT_ID: app.client_id,
      MDPS_CLIENT_SECRET: "not-the-secret-at-all",
      MDPS_MODEL_ID: app.model_id,
    };
    const run = await promisify(execFile)(process.execPath, [MAIN, "whoami"], { env }).then(
      () => ({ stderr: "", code: 0 }),
      (e: unknown) => e as { stderr: string; code: number },
    );
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("failed with 401 invalid_client: unknown client_id or wrong client_secret");
    expect(count(run.stderr, /regenerat/)).toBe(1);
    expect(count(run.stderr, /MDPS_CLIENT_SECRET/)).toBe(1);
    expect(run.stderr).not.toContain("not-the-secret-at-all");
    const doctor = await promisify(execFile)(process.execPath, [MAIN, "doctor"], { env }).then(
      (r) => ({ stdout: r.stdout }),
      (e: unknown) => e as { stdout: string },
    );
    expect(doctor.stdout).toMatch(/-> Check MDPS_CLIENT_ID and MDPS_CLIENT_SECRET\.$/m);
    expect(count(doctor.stdout, /regenerat/)).toBe(1);
  });
});
