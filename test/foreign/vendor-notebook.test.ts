/**
 * A notebook's cells against the ASP.NET-style vendor, configured as its user would with
 * a profile (its words, and how it is asked for fitted parameters): the job list shows
 * where each job is now, cancel on a finished job says so, the fitted state that comes only
 * on request is asked for, and an archived blob's 409 gets the access tier's remedy.
 */
import { join } from "node:path";
import { DataFrame } from "danfojs-node";
import { describe, expect, it } from "vitest";
import { writeProfile } from "../../src/client/config-file.js";
import { ConflictError, Session } from "../../src/index.js";
import type { ForeignService } from "../foreign-service/index.js";
import { tempDir } from "../session/session-fixture.js";
import { inputFrame, useForeignSessions } from "./foreign-helpers.js";

const { start, keep } = useForeignSessions({
  jobDelayMs: 30,
  errorBodies: "aspnet",
  jobFamilies: "separate",
  fittedParameters: "pascal",
  fittedParametersWhen: "on-request",
  archiveRefusesReads: true,
});

/** The profile `mdps configure` would write, plus the vendor's fitted flag (profile key fitted_query). */
async function notebookSession(service: ForeignService, extra: Record<string, unknown> = {}): Promise<Session> {
  const dir = tempDir("mdps-vendor-notebook-");
  const configFile = join(dir.path, "config.json");
  await writeProfile({
    path: configFile,
    name: "vendor",
    makeDefault: true,
    profile: {
      base_url: service.baseUrl,
      model_id: service.modelId,
      client_id: service.clientId,
      client_secret: service.clientSecret,
      record_types: { csv: "Csv" },
      access_tiers: { hot: "Hot", archive: "Archive" },
    },
  });
  if (Object.keys(extra).length > 0) {
    const { readFileSync, writeFileSync } = await import("node:fs");
    const file = JSON.parse(readFileSync(configFile, "utf8")) as { profiles: { vendor: Record<string, unknown> } };
    Object.assign(file.profiles.vendor, extra);
    writeFileSync(configFile, JSON.stringify(file));
  }
  return keep(
    await Session.connect({ configFile, env: {}, journal: false, retry: { baseDelayMs: 5, maxDelayMs: 50 } }),
  );
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("a notebook against the vendor", () => {
  it("jobs() shows each job's status now; cancel of a finished job says it ended; fitted state asked for", async () => {
    const service = await start();
    const session = await notebookSession(service, { fitted_query: { includeFittedParameters: "true" } });

    // Cell: the doctor tries the profile's words with a one-row upload, and deletes it.
    const report = await session.doctor({ probe: true });
    expect(report.checks.find((c) => c.check === "upload words")).toMatchObject({ status: "ok" });
    expect(report.checks.find((c) => c.check === "probe deleted")).toMatchObject({ status: "ok" });
    expect(String(report)).toContain(
      'the service accepted RecordType "Csv" and AccessTier "Hot" (the configured words)',
    );
    expect(service.blobNames()).toEqual([]);

    // Cell: send, do not wait.
    const job = await session.preprocess(inputFrame(), { type: "StandardScaler", columns: ["a", "b"] });
    expect(job.record?.status).toBe("queued");
    await until(() => service.jobs()[0]?.state === "succeeded", "the job to end on the service");

    // Cell: the list is read now, not the status at send time.
    const [listed] = await session.jobs();
    expect(listed?.id).toBe(job.id);
    expect(listed?.record?.status).toBe("succeeded");

    // Cell: nothing to cancel.
    const cancel = await job.cancel().catch((e: unknown) => e as Error);
    expect(cancel.message).toMatch(/already ended as succeeded, so there is nothing to stop\./);
    expect(cancel.message).not.toContain("goes on running");

    // Cell: the fitted state came because it was asked for: the transformer scales new data.
    const scaler = await job.transformer({ progress: "none", pollIntervalMs: 20 });
    expect(job.fitted).toMatchObject({ type: "StandardScaler", mean_: [2.5, 25] });
    const out = scaler.transform(new DataFrame({ a: [2.5], label: ["q"], b: [25] }));
    expect((out["a"] as { values: number[] }).values[0]).toBeCloseTo(0, 12);
  }, 60_000);

  it("without fitted_query the result has none, and the error says how to ask for it", async () => {
    const service = await start();
    const session = await notebookSession(service);
    const job = await session.preprocess(inputFrame(), { type: "StandardScaler", columns: ["a", "b"] });
    const error = (await job.transformer({ progress: "none", pollIntervalMs: 20 }).catch((e: unknown) => e)) as Error;
    expect(error.message).toContain("the service returned no fitted state");
    expect(error.message).toContain("fittedQuery option");
    expect(error.message).toContain("fitted_query");
    expect(job.fitted).toBeUndefined();
  }, 60_000);

  it("an archived blob: its download and a job on it are 409s with the access tier's remedy, not a job's", async () => {
    const service = await start();
    const session = await notebookSession(service);
    const archived = await session.upload(inputFrame(), { name: "cold.csv", accessTier: "archive" });
    expect(archived.record.access_tier).toBe("Archive");

    const sent = (await session
      .preprocess(archived, { type: "StandardScaler", columns: ["a"] })
      .catch((e: unknown) => e)) as ConflictError;
    expect(sent).toBeInstanceOf(ConflictError);
    expect(sent.message).toContain("not permitted on an archived blob");
    expect(sent.message).toContain("rehydrate it");
    expect(sent.message).not.toContain("Wait for the job to finish");
    expect(sent.remedy).toContain("archive (or cold) access tier");

    const read = (await archived.download().catch((e: unknown) => e)) as ConflictError;
    expect(read).toBeInstanceOf(ConflictError);
    expect(read.message).toContain("rehydrate it");
    expect(read.message.split("rehydrate").length).toBe(2);
  }, 60_000);
});
