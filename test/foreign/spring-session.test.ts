/**
 * The "done when" workflow against a Spring-style vendor (test/foreign-service/spring-vendor.ts),
 * with nothing but addresses, credentials and what `mdps configure` learned: connect, health,
 * upload a frame and a file, update, download, delete, four transforms with parameters, live
 * status, logs, gzip results as DataFrames, a vendor-failed job, a generic job (with and
 * without outputs), a blob uploaded by other means, 503/429 with Retry-After, a slow queue.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DataFrame } from "danfojs-node";
import { afterEach, describe, expect, it } from "vitest";
import {
  JobFailedError,
  NotFoundError,
  OAuthError,
  PayloadTooLargeError,
  PermissionDeniedError,
  Session,
  type ConnectOptions,
} from "../../src/index.js";
import { useForeignServices } from "../foreign-service/calls.js";
import type { ForeignService, ForeignServiceOptions, RequestLine } from "../foreign-service/index.js";
import { springVendor } from "../foreign-service/spring-vendor.js";
import { configured, useConfigDir } from "./spring-vendor-helpers.js";

const start = useForeignServices({ jobDelayMs: 60 });
const dir = useConfigDir();
const sessions: Session[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
});

let configs = 0;
/** A vendor with these extra switches, configured by `mdps configure` alone, and a Session on its profile. */
async function open(
  extra: ForeignServiceOptions = {},
  connect: Partial<ConnectOptions> = {},
): Promise<{ service: ForeignService; session: Session; config: string }> {
  const service = await start({ ...springVendor({ openApi: false }), ...extra });
  const config = join(dir.path(), `session-${(configs += 1)}.json`);
  await configured(dir.path(), service, config);
  const session = await Session.connect({
    profile: "spring",
    configFile: config,
    env: {},
    retry: { baseDelayMs: 5, maxDelayMs: 50 },
    ...connect,
  });
  sessions.push(session);
  return { service, session, config };
}

const frame = () => new DataFrame({ a: [1, 2, 3, 4], label: ["w", "x", "y", "z"], b: [10, 20, 30, 40] });
const column = (df: DataFrame, name: string) => df.column(name).values as number[];
const close = (actual: number[], expected: number[]) =>
  actual.forEach((v, i) => expect(v).toBeCloseTo(expected[i]!, 12));

describe("a Spring-style vendor, configured by mdps configure alone", () => {
  it("connect, health, blobs (frame and file), update, download, delete", async () => {
    const { service, session } = await open();
    expect((await session.health()).status).toBe("healthy");
    const blob = await session.upload(frame(), { name: "input.csv" });
    expect(blob.record.record_type).toBe("CSV");
    expect(blob.record.created_at).toMatch(/^\d{4}-\d\d-\d\dT/); // Jackson's epoch millis, read as a time
    const file = join(dir.path(), "file.csv");
    writeFileSync(file, "a,b\n5,6\n7,8\n");
    const fromFile = await session.upload(file);
    close(column(await fromFile.download(), "a"), [5, 7]);
    await blob.update(new DataFrame({ a: [9, 8], b: [1, 2] }));
    close(column(await blob.download(), "a"), [9, 8]);
    await fromFile.delete();
    expect(service.blobNames()).toEqual(["input.csv"]);
  });

  it("four transforms with parameters in either spelling, gzip outputs read as DataFrames, logs, live status", async () => {
    const { service, session } = await open();
    const input = await session.upload(frame(), { name: "input.csv" });
    const statuses: string[] = [];
    const standard = await session.preprocess(input, {
      type: "StandardScaler",
      columns: ["a"],
      // The vendor's own spelling, as its documentation shows it, is taken too.
      params: { withMean: false } as unknown as { with_mean: boolean },
    });
    await standard.wait({ onUpdate: (r) => statuses.push(r.status), progress: "none" });
    close(
      column(await standard.dataframe(), "a"),
      [1, 2, 3, 4].map((x) => x / Math.sqrt(1.25)),
    );
    expect(statuses.at(-1)).toBe("succeeded");
    const minmax = await session.preprocess(input, {
      type: "MinMaxScaler",
      columns: ["a"],
      params: { feature_range: [0, 2] },
    });
    close(column(await minmax.dataframe(), "a"), [0, 2 / 3, 4 / 3, 2]);
    const robust = await session.preprocess(input, {
      type: "RobustScaler",
      columns: ["a"],
      params: { quantile_range: [10, 90] },
    });
    close(
      column(await robust.dataframe(), "a"),
      [1, 2, 3, 4].map((x) => (x - 2.5) / 2.4),
    );
    const maxabs = await session.preprocess(input, { type: "MaxAbsScaler", columns: ["a", "b"] });
    const scaled = await maxabs.dataframe();
    close(column(scaled, "b"), [0.25, 0.5, 0.75, 1]);
    expect(scaled.column("label").values).toEqual(["w", "x", "y", "z"]);
    // The outputs really were gzip: named .gz by the vendor, 1f 8b on the wire.
    const [output] = await maxabs.outputs();
    expect(service.blobNames().filter((n) => n.endsWith(".gz"))).toHaveLength(4);
    expect([...(await output!.bytes()).subarray(0, 2)]).toEqual([0x1f, 0x8b]);
    // Saved as the file its name asks for: CSV text, not the stored gzip.
    const saved = join(dir.path(), "maxabs.csv");
    await maxabs.download(saved);
    expect(readFileSync(saved, "utf8").split("\n")[0]).toBe("a,label,b");
    const logs = await standard.logs();
    expect(logs.map((l) => l.message).join("\n")).toContain("Fitted StandardScaler on a");
    expect(logs[0]!.timestamp).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(service.jobs().map((j) => j.state)).toEqual(["succeeded", "succeeded", "succeeded", "succeeded"]);
  });

  it("a job the vendor fails is explained; a 404 just after each send was ridden out", async () => {
    const { service, session } = await open();
    const input = await session.upload(frame(), { name: "input.csv" });
    const job = await session.preprocess(input, { type: "PowerTransformer", columns: ["a"] });
    const error = await job.dataframe().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobFailedError);
    expect((error as Error).message).toContain("PowerTransformer is not available in this region");
    // Its reads met the queue's 404s first (about a second), and waited them out.
    const reads = service.requests().filter((r) => r.path.includes(`/${job.id}/`));
    expect(reads.length).toBeGreaterThan(1);
  });

  it("a 404 that outlasts the grace ends with a message naming the grace and its setting", async () => {
    const { session } = await open({ notVisibleAfterSendMs: 5_000 }, { jobVisibleGraceMs: 300 });
    const input = await session.upload(frame(), { name: "input.csv" });
    const job = await session.preprocess(input, { type: "StandardScaler", columns: ["a"] });
    const error = await job.wait({ progress: "none" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toContain("still answers 404 for it 0.3 s after the send");
    expect((error as Error).message).toContain("job_visible_grace_ms");
  });

  it("generic jobs in the vendor's job type word, with outputs and without (no crash, a handle)", async () => {
    const { service, session } = await open();
    const input = await session.upload(frame(), { name: "input.csv" });
    const withOutputs = await session.sendJob({
      type: "preprocessing",
      payload: {
        input_blob_id: input.id,
        preprocessing_type: "MaxAbsScaler",
        preprocessing_params: {},
        feature_columns: ["a"],
        output: [{ name: "generic.csv", record_type: "csv" }],
      },
    });
    close(column(await withOutputs.dataframe(), "a"), [0.25, 0.5, 0.75, 1]);
    const bare = await session.sendJob({
      type: "preprocessing",
      payload: { input_blob_id: input.id, preprocessing_type: "MaxAbsScaler", feature_columns: ["b"] },
    });
    expect((await bare.wait({ progress: "none" })).status).toBe("succeeded");
    expect(service.jobs().map((j) => j.via)).toEqual(["generic", "generic"]);
  });

  it("a blob that exists on the service, uploaded by other means: session.blob(id)", async () => {
    const { service, session, config } = await open();
    // Another program (here another session) uploaded it; this session has never seen it.
    const stored = await session.upload(frame(), { name: "elsewhere.csv" });
    const fresh = await Session.connect({ profile: "spring", configFile: config, env: {}, journal: false });
    sessions.push(fresh);
    expect(fresh.blobs()).toEqual([]);
    const found = await fresh.blob(stored.id);
    expect(found.name).toBe("elsewhere.csv");
    expect(found.record.size_bytes).toBe(stored.record.size_bytes);
    close(column(await found.download(), "b"), [10, 20, 30, 40]);
    await expect(fresh.blob("00000000-0000-4000-8000-000000000000")).rejects.toBeInstanceOf(NotFoundError);
    expect(service.blobNames()).toEqual(["elsewhere.csv"]);
  });

  it("503 with Retry-After on an upload is sent again: one blob", async () => {
    // Armed once configure is done: the faults are the Session's to meet.
    let armed = false;
    const uploads = (r: RequestLine) => armed && r.path.endsWith("/blob/upload");
    const { service, session } = await open({ retryAfter: { kind: "seconds", status: 503, times: 1, path: uploads } });
    armed = true;
    const before = service.requests().length;
    const input = await session.upload(frame(), { name: "input.csv" });
    const after = service.requests().slice(before);
    expect(after.filter((r) => r.path.endsWith("/blob/upload"))).toHaveLength(2);
    expect(service.blobNames()).toEqual(["input.csv"]);
    const job = await session.preprocess(input, { type: "StandardScaler", columns: ["a"] });
    expect((await job.wait({ progress: "none" })).status).toBe("succeeded");
  });

  it("429 with Retry-After on a send is ridden out, and the send is made once", async () => {
    let armed = false;
    const sends = (r: RequestLine) => armed && r.path.endsWith("/job/send");
    const { service, session } = await open({ retryAfter: { kind: "seconds", status: 429, times: 1, path: sends } });
    const input = await session.upload(frame(), { name: "input.csv" });
    armed = true;
    const job = await session.preprocess(input, { type: "StandardScaler", columns: ["a"] });
    expect((await job.wait({ progress: "none" })).status).toBe("succeeded");
    expect(service.jobs()).toHaveLength(1);
  });

  it("413, a wrong secret, a missing scope and short-lived tokens running out: each explained, nothing lost", async () => {
    const { service, session, config } = await open({ maxUploadBytes: 64, tokenLifetimeSeconds: 2, jobDelayMs: 2_500 });
    const big = new DataFrame({ a: Array.from({ length: 200 }, (_, i) => i) });
    const tooLarge = await session.upload(big, { name: "big.csv" }).catch((e: unknown) => e);
    expect(tooLarge).toBeInstanceOf(PayloadTooLargeError);
    expect(service.blobNames()).toEqual([]);

    // A job that outlives its token: the wait goes on with a new one.
    const input = await session.upload(frame(), { name: "small.csv" });
    const tokensBefore = service.requests().filter((r) => r.path.endsWith("/exchange")).length;
    const job = await session.preprocess(input, { type: "StandardScaler", columns: ["a"] });
    expect((await job.wait({ progress: "none" })).status).toBe("succeeded");
    expect(service.requests().filter((r) => r.path.endsWith("/exchange")).length).toBeGreaterThan(tokensBefore);

    const wrong = await Session.connect({
      profile: "spring",
      configFile: config,
      env: {},
      clientSecret: "x".repeat(43),
    })
      .then((s) => sessions.push(s))
      .catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(OAuthError);
    expect((wrong as OAuthError).code).toBe("invalid_client");
    expect((wrong as Error).message).not.toContain(service.clientSecret);

    const readOnly = await Session.connect({
      profile: "spring",
      configFile: config,
      env: {},
      scopes: ["shared.blob.upload", "shared.blob.download", "shared.health.read", "ml.preprocessing.read"],
    });
    sessions.push(readOnly);
    const refused = await readOnly
      .preprocess(input, { type: "StandardScaler", columns: ["a"] })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PermissionDeniedError);
    expect((refused as Error).message).toContain("ml.preprocessing.execute");
    expect(service.jobs()).toHaveLength(1);
  });

  it("notebook cells: the session shows where each fact of its profile came from; a job renders", async () => {
    const { session } = await open();
    const facts = session.profile.describe();
    expect(facts.find((f) => f.assumption === "blob form part names")).toMatchObject({
      value: expect.stringContaining("recordType -> recordType") as unknown,
      from: expect.stringContaining("learned from probe: an empty upload's 400 named the part 'file'") as unknown,
    });
    expect(facts.find((f) => f.assumption === "parameter spelling")).toMatchObject({ value: "camelCase" });
    expect(facts.find((f) => f.assumption === "grace for a just-sent job's 404")).toMatchObject({
      value: "8000 ms",
      from: "the default",
    });
    const job = await session.preprocess(frame(), { type: "MaxAbsScaler", columns: ["a"] });
    await job.wait({ progress: "none" });
    expect(job.toHTML()).toContain("succeeded");
    expect(session.toHTML()).toContain(session.client.config.baseUrl);
  });
});
