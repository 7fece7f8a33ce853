/**
 * Error classes, token refresh, cancellation and encryption against the real
 * reference service (startService on 127.0.0.1 port 0, temp data dirs).
 */
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AbortError,
  AuthenticationError,
  BadRequestError,
  ConfigError,
  DecryptionError,
  JobFailedError,
  MdpsClient,
  NotFoundError,
  OAuthError,
  PayloadTooLargeError,
  PermissionDeniedError,
  Session,
  ValidationError,
  generateEncryptionKey,
} from "../../src/index.js";
import { openAdmin, type RunningService } from "../../src/server/index.js";
import { ServiceStarter } from "../harness/service-starter.js";
import { column, isMissing, sampleFrame, tempDir } from "./session-fixture.js";
import { SCOPES } from "../../src/core/contract/scopes.js";

interface App {
  modelId: string;
  clientId: string;
  clientSecret: string;
}

const starter = new ServiceStarter();
let dir: ReturnType<typeof tempDir> | undefined;
/** Undefined until beforeAll has started it (and after a beforeAll that failed). */
let service: RunningService | undefined;
let full: App;
let healthOnly: App;

function makeApp(dataDir: string, scopes: string[]): App {
  const admin = openAdmin(dataDir);
  try {
    const { model_id } = admin.createModel("m");
    const app = admin.addApp({ modelId: model_id, name: "test", scopes });
    return { modelId: model_id, clientId: app.client_id, clientSecret: app.client_secret };
  } finally {
    admin.close();
  }
}

const ALL: string[] = [...SCOPES];

beforeAll(async () => {
  dir = tempDir();
  service = await starter.start({ dataDir: dir.path, tokenTtlSeconds: 1, maxBlobBytes: 64 * 1024, jobWorkers: 1 });
  full = makeApp(dir.path, ALL);
  healthOnly = makeApp(dir.path, ["shared.health.read"]);
});
afterAll(async () => {
  await starter.cleanup();
  dir?.remove();
});

const connect = (app: App, extra: object = {}) =>
  Session.connect({ baseUrl: service!.url, ...app, env: {}, configFile: false, ...extra });

describe("errors from the real service", () => {
  it("ConfigError lists what is missing", async () => {
    const err = await Session.connect({ env: {}, configFile: false }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).missing).toHaveLength(4);
  });

  it("a wrong secret is an OAuthError invalid_client, without the secret in it", async () => {
    const wrong = "definitely-not-the-secret-0123456789-abcdef";
    const err = await connect({ ...full, clientSecret: wrong }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OAuthError);
    expect((err as OAuthError).code).toBe("invalid_client");
    expect((err as OAuthError).status).toBe(401);
    for (const text of [String(err), inspect(err, { depth: 10 }), JSON.stringify(err), (err as Error).stack ?? ""]) {
      expect(text).not.toContain(wrong);
      expect(text).not.toContain(full.clientSecret);
    }
  });

  it("a token of another service is an AuthenticationError (after one refresh)", async () => {
    const otherDir = tempDir();
    const other = await starter.start({ dataDir: otherDir.path, jobWorkers: 1 });
    try {
      const app = makeApp(otherDir.path, ALL);
      const client = MdpsClient.create({
        ...app,
        baseUrl: service!.url,
        authUrl: other.url,
        env: {},
        configFile: false,
      });
      const err = await client.health.get().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AuthenticationError);
      expect((err as AuthenticationError).status).toBe(401);
      expect(client.tokens.refreshCount).toBe(2);
      await client.close();
    } finally {
      await other.close();
      otherDir.remove();
    }
  });

  it("a missing scope is a PermissionDeniedError naming it", async () => {
    // The application has only shared.health.read, so that is what its token request names.
    const session = await connect(healthOnly, { scopes: ["shared.health.read"] });
    const err = await session.upload(Buffer.from("a\n1\n")).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermissionDeniedError);
    expect((err as Error).message).toContain("shared.blob.upload");
    await session.close();
  });

  it("the region is checked at connect", async () => {
    const err = await connect(full, { region: "uk1" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(/"uk1".*reports region "local"/);
    const ok = await connect(full, { region: "local" });
    expect(ok.region).toBe("local");
    await ok.close();
  });

  it("NotFound, Validation (service side), BadRequest and PayloadTooLarge", async () => {
    const session = await connect(full);
    const missing = await session
      .job("3d6f1f64-8a57-4d1c-9a57-0f3a0c4f7b21")
      .status()
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    // The service's request id reaches the error, so a user can quote it.
    expect((missing as NotFoundError).requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect((missing as Error).message).toContain((missing as NotFoundError).requestId);
    const bad = await session.client.preprocessing
      .send({
        model_id: session.modelId,
        input_blob_id: "3d6f1f64-8a57-4d1c-9a57-0f3a0c4f7b21",
        preprocessing_type: "Normalizer",
        preprocessing_params: { norm: "l3" },
        output: [{ name: "o" }],
      })
      .catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(ValidationError);
    expect(bad).toBeInstanceOf(BadRequestError);
    expect(Object.keys((bad as ValidationError).errors ?? {}).join()).toContain("norm");
    const tooBig = await session.upload(Buffer.alloc(100 * 1024, 65), { recordType: "csv" }).catch((e: unknown) => e);
    expect(tooBig).toBeInstanceOf(PayloadTooLargeError);
    await session.close();
  });
});

describe("tokens, cancellation, encryption", () => {
  it("refreshes a short-lived token (expires_in 1 s) across calls", async () => {
    const session = await connect(full);
    const job = await session.preprocess(sampleFrame(20), { type: "StandardScaler" });
    await job.wait();
    await new Promise((r) => setTimeout(r, 1100));
    const out = await job.dataframe();
    expect(out.shape[0]).toBe(20);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await session.health()).status).toBe("healthy");
    expect(session.client.tokens.refreshCount).toBeGreaterThanOrEqual(3);
    await session.close();
  });

  it("an AbortSignal cancels an upload in flight, and a wait before it starts", async () => {
    const session = await connect(full);
    const controller = new AbortController();
    let sent = 0;
    // A stalled producer: the upload is mid-body when the signal fires, and the rest comes
    // only after the upload has ended, so an upload that waited for it would never end.
    let release = () => {};
    const stalled = new Promise<void>((r) => (release = r));
    const slow = async function* () {
      yield Buffer.from("a,b\n");
      sent += 1;
      await stalled;
      yield Buffer.from("1,2\n");
    };
    setTimeout(() => controller.abort(new Error("user")), 200);
    const err = await session.client.blobs
      .upload({ name: "slow", recordType: "csv" }, () => slow(), { signal: controller.signal })
      .catch((e: unknown) => e);
    release();
    expect(err).toBeInstanceOf(AbortError);
    expect(sent).toBe(1);

    const job = await session.preprocess(sampleFrame(10), { type: "MaxAbsScaler" });
    await expect(job.wait({ signal: controller.signal })).rejects.toBeInstanceOf(AbortError);
    await expect(session.upload(sampleFrame(10), { signal: controller.signal })).rejects.toBeInstanceOf(AbortError);
    expect((await job.wait()).status).toBe("succeeded");
    await session.close();
  });

  it("encrypts on the client: round trip, job on encrypted data, wrong key fails", async () => {
    const session = await connect(full);
    const df = sampleFrame(30, 5);
    const blob = await session.upload(df, { encrypt: true });
    expect(blob.encrypted).toBe(true);
    const key = blob.encryptionKey!.reveal();
    expect(inspect(blob)).not.toContain(key);
    expect(JSON.stringify(blob)).not.toContain(key);
    const back = await blob.download();
    expect(column(back, "label")).toEqual(column(df, "label"));

    const job = await session.preprocess(blob, { type: "MaxAbsScaler" });
    expect(JSON.stringify(job.record)).not.toContain(key);
    const out = await job.dataframe();
    const x2 = column(df, "x2") as number[];
    const max = Math.max(...x2.map(Math.abs));
    (column(out, "x2") as number[]).forEach((v, i) => expect(v).toBe(x2[i]! / max));
    const [output] = await job.outputs();
    expect(output!.encrypted).toBe(true);

    const wrong = generateEncryptionKey();
    await expect(blob.withKey(wrong).bytes()).rejects.toBeInstanceOf(DecryptionError);
    const failing = await session.preprocess(blob, { type: "MaxAbsScaler" });
    const err = await failing.wait().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JobFailedError);
    expect((err as JobFailedError).detail + (err as JobFailedError).title).toMatch(/decrypt|key/i);
    expect(String(err)).not.toContain(wrong);
    expect(isMissing(column(out, "x1")[3])).toBe(true);
    await session.close();
  });
});
