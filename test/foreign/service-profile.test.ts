/**
 * The Session's service profile against a service that declares nothing (test/foreign-service),
 * one switch of what it accepts at a time, and against ours: the whole workflow passes,
 * or fails before a duplicate or a wrong request is made.
 */
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, PreflightError, SendOutcomeUnknownError, Session } from "../../src/index.js";
import { tempDir } from "../session/session-fixture.js";
import { connectTo, inputFrame, runWorkflow, SCALED_A, useForeignSessions } from "./foreign-helpers.js";

const { start, open, keep } = useForeignSessions({ jobDelayMs: 40 });

function scaledA(output: Awaited<ReturnType<typeof runWorkflow>>["output"]): number[] {
  return (output["a"] as { values: number[] }).values;
}

describe("the service profile of a service that declares nothing", () => {
  it("defaults: CSV on the wire, the preprocessing send, named feature columns, the profile's words", async () => {
    const { service, session } = await open();
    expect(session.wireFormat).toBe("csv");
    expect(session.profile.declares("idempotent-job-send")).toBe(false);
    expect(session.profile.emptyFeatureColumnsMeanAll).toBe(false);
    const { output, job, logs } = await runWorkflow(session);
    scaledA(output).forEach((v, i) => expect(v).toBeCloseTo(SCALED_A[i]!, 9));
    expect(service.jobs().map((j) => j.via)).toEqual(["preprocessing"]);
    // No columns were given: the Session named the numeric ones it read, not an empty list.
    expect(logs.map((l) => l.message).join("\n")).toContain("Fitted StandardScaler on a, b");
    const [input] = session.blobs();
    expect(input!.record.record_type).toBe("Csv");
    expect(input!.recordType).toBe("csv");
    expect((await job.outputs())[0]!.recordType).toBe("csv");
    expect(session.profile.describe().find((a) => a.assumption === "job send")).toMatchObject({
      from: "the interface (nothing declared)",
    });
  });

  it("preprocessing endpoints that need the preprocessing scopes: the token asked for them", async () => {
    const { service, session } = await open({ requirePreprocessingScopes: true });
    await runWorkflow(session);
    expect(service.jobs()).toHaveLength(1);
  });

  it("no generic /api/job/send: the workflow never needs it", async () => {
    const { service, session } = await open({ genericJobSend: false });
    await runWorkflow(session);
    expect(service.requests().some((r) => r.path === "/api/job/send")).toBe(false);
  });

  it("closed vocabularies of its own, set through a config profile's value maps", async () => {
    const service = await start({ recordTypes: ["DelimitedText"], accessTiers: ["Standard", "Frozen"] });
    const dir = tempDir("mdps-profile-").path;
    const configFile = join(dir, "config.json");
    writeFileSync(
      configFile,
      JSON.stringify({
        profiles: {
          theirs: {
            base_url: service.baseUrl,
            auth_url: service.authUrl,
            client_id: service.clientId,
            client_secret: service.clientSecret,
            model_id: service.modelId,
            record_types: { csv: "DelimitedText" },
            access_tiers: { hot: "Standard", archive: "Frozen" },
          },
        },
      }),
    );
    chmodSync(configFile, 0o600);
    const session = await Session.connect({ configFile, profile: "theirs", env: {} });
    keep(session);
    const { output, job } = await runWorkflow(session);
    scaledA(output).forEach((v, i) => expect(v).toBeCloseTo(SCALED_A[i]!, 9));
    expect(session.blobs()[0]!.record).toMatchObject({ record_type: "DelimitedText", access_tier: "Standard" });
    const archived = await session.preprocess(session.blobs()[0]!, {
      type: "MinMaxScaler",
      outputs: { accessTier: "archive" },
    });
    // Accepted and run: the service refuses any tier word but Standard and Frozen.
    await expect(archived.wait({ pollIntervalMs: 10, progress: "none" })).resolves.toMatchObject({
      status: "succeeded",
    });
    expect(job.id).not.toBe(archived.id);
  });

  it("a mistyped value map in the profile is a ConfigError naming the file", async () => {
    const dir = tempDir("mdps-profile-").path;
    const configFile = join(dir, "config.json");
    writeFileSync(
      configFile,
      JSON.stringify({ profiles: { default: { base_url: "http://127.0.0.1:9", record_types: { cvs: "Csv" } } } }),
    );
    await expect(Session.connect({ configFile, env: {} })).rejects.toThrow(ConfigError);
    await expect(Session.connect({ configFile, env: {} })).rejects.toThrow(configFile);
  });

  it("no idempotent send: a 502 after the job was made is not sent again, and says so", async () => {
    const { service, session } = await open({ failFirstSendWith502AfterCreating: true });
    const error = await runWorkflow(session).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SendOutcomeUnknownError);
    expect((error as Error).message).toContain("did not send it again");
    expect((error as Error).message).toContain("portal");
    // One job at the service: the send was not repeated blindly.
    expect(service.jobs()).toHaveLength(1);
    expect(service.requests().filter((r) => r.path.endsWith("/job/send"))).toHaveLength(1);
  });

  it("encryption is refused before any byte is sent unless the service reads mdps's envelope", async () => {
    const { service, session } = await open();
    const before = service.requests().length;
    await expect(session.upload(inputFrame(), { encrypt: true })).rejects.toThrow(/envelope-v1/);
    await expect(session.preprocess(inputFrame(), { type: "StandardScaler", encrypt: true })).rejects.toThrow(
      ConfigError,
    );
    expect(service.requests().length).toBe(before);
    // encrypt: false asks for nothing.
    await expect(session.upload(inputFrame(), { encrypt: false })).resolves.toBeDefined();
  });
});

describe("the service profile of our reference service", () => {
  it("declares every extension: Arrow on the wire, the idempotent generic send, empty columns mean all", async () => {
    const session = await Session.local({ dataDir: tempDir("mdps-profile-local-").path });
    keep(session);
    expect(session.wireFormat).toBe("arrow");
    expect(session.profile.declares("idempotent-job-send")).toBe(true);
    expect(session.profile.declares("envelope-v1")).toBe(true);
    expect(session.profile.emptyFeatureColumnsMeanAll).toBe(true);
    const job = await session.preprocess(inputFrame(), { type: "StandardScaler", encrypt: true });
    const output = await job.dataframe();
    (output["a"] as { values: number[] }).values.forEach((v, i) => expect(v).toBeCloseTo(SCALED_A[i]!, 9));
  });

  it("wireFormat and capabilities from the options win over what is declared", async () => {
    const session = await Session.local({ dataDir: tempDir("mdps-profile-local-").path, wireFormat: "csv" });
    keep(session);
    expect(session.wireFormat).toBe("csv");
    expect(session.profile.describe().find((a) => a.assumption === "wire format of DataFrames")).toMatchObject({
      value: "csv",
      from: "your settings",
    });
  });
});

describe("explicit feature columns", () => {
  it("a blob this session never read, at a service that declares nothing: a PreflightError asks for columns", async () => {
    const { service, session } = await open();
    const { job } = await runWorkflow(session);
    // Another session (a restarted kernel) knows the output only by the job's id.
    const other = await connectTo(service);
    keep(other);
    const [output] = await other.job(job.id).outputs();
    const before = service.jobs().length;
    const error = await other.preprocess(output!, { type: "MinMaxScaler" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PreflightError);
    expect((error as Error).message).toContain("name the feature columns");
    expect(service.jobs().length).toBe(before);
    // Named, it runs.
    const named = await other.preprocess(output!, { type: "MinMaxScaler", columns: ["a"] });
    await named.wait({ pollIntervalMs: 10, progress: "none" });
    expect(service.jobs().length).toBe(before + 1);
  });
});
