/**
 * The whole Session workflow against a service written from the interface alone
 * (test/foreign-service), one variant at a time: each either works or fails with the
 * message it calls for.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  InternalServerError,
  JobFailedError,
  OAuthError,
  SendOutcomeUnknownError,
  TimeoutError,
} from "../../src/index.js";
import { connectTo, inputFrame, FOREIGN_WORDS, runWorkflow, SCALED_A, useForeignSessions } from "./foreign-helpers.js";

const { start, open } = useForeignSessions({ jobDelayMs: 60 });
afterEach(() => {
  vi.restoreAllMocks();
});

function column(df: { [name: string]: unknown }, name: string): number[] {
  return (df[name] as { values: number[] }).values;
}

function expectScaled(output: Awaited<ReturnType<typeof runWorkflow>>["output"]): void {
  expect(output.columns).toEqual(["a", "label", "b"]);
  column(output, "a").forEach((v, i) => expect(v).toBeCloseTo(SCALED_A[i]!, 9));
  expect((output["label"] as { values: string[] }).values).toEqual(["x", "y", "z", "w"]);
}

describe("the Session against the foreign service", () => {
  it("baseline: PascalCase statuses, camelCase blobs, blob ids for outputs, bare-array logs, no fitted state", async () => {
    const { service, session } = await open();
    const { output, logs, job } = await runWorkflow(session);
    expectScaled(output);
    // Statuses are read by meaning; the service's own word is kept.
    expect(job.record).toMatchObject({ status: "succeeded", service_status: "Succeeded" });
    expect(job.record?.progress).toBeUndefined();
    expect(logs.length).toBeGreaterThan(0);
    expect(logs[0]).toMatchObject({ level: "info", container: { replicaName: expect.any(String) as string } });
    expect(logs.map((l) => l.message).join("\n")).toContain("Job succeeded");
    const followed: string[] = [];
    for await (const m of job.followLogs({ pollIntervalMs: 10 })) followed.push(m.message);
    expect(followed).toEqual(logs.map((l) => l.message));
    // The job id is the service's (the client's own id is not the job's id there).
    expect(service.jobs().map((j) => j.id)).toEqual([job.id]);
    // Sent on the interface's preprocessing endpoint: this service declares no idempotent generic send.
    expect(service.jobs()[0]!.via).toBe("preprocessing");
    const [blob] = await job.outputs();
    expect(blob!.recordType).toBe("csv");
    expect(blob!.record.id).toBe(service.jobs()[0]!.outputBlobIds[0]);
    await expect(job.transformer()).rejects.toThrow(/the service returned no fitted state/);
    expect(job.fitted).toBeUndefined();
    // The upload's record in camelCase is read into the canonical names.
    const [input] = session.blobs();
    expect(input!.record).toMatchObject({
      id: expect.any(String) as string,
      name: "input.csv",
      record_type: "Csv",
      size_bytes: expect.any(Number) as number,
    });
    expect(input!.recordType).toBe("csv");
  });

  it("status synonyms: Pending, InProgress, Completed are queued, running, succeeded", async () => {
    const { session } = await open({
      statusWords: { queued: "Pending", running: "InProgress", succeeded: "Completed", failed: "Error" },
    });
    const warn = vi.spyOn(process, "emitWarning");
    const seen: string[] = [];
    const input = await session.upload(inputFrame(), FOREIGN_WORDS);
    const job = await session.preprocess(input, { type: "StandardScaler", columns: ["a"], outputs: FOREIGN_WORDS });
    await job.wait({ pollIntervalMs: 5, progress: "none", onUpdate: (r) => seen.push(r.status) });
    expect(seen.at(-1)).toBe("succeeded");
    expect(seen.every((s) => ["queued", "running", "succeeded"].includes(s))).toBe(true);
    expectScaled(await job.dataframe());
    expect(warn).not.toHaveBeenCalled();
  });

  it("a failed job (status Error) fails the wait with the service's message", async () => {
    const { session } = await open({ statusWords: { failed: "Error" } });
    const input = await session.upload(inputFrame(), FOREIGN_WORDS);
    const job = await session.preprocess(input, { type: "RobustScaler", columns: ["a"], outputs: FOREIGN_WORDS });
    const error = await job.wait({ pollIntervalMs: 5, progress: "none" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobFailedError);
    expect((error as JobFailedError).status).toBe("failed");
    expect(job.record?.service_status).toBe("Error");
  });

  it("an unknown status is shown verbatim, not terminal, with one warning naming it and the options", async () => {
    const { session } = await open({ statusWords: { finalizing: "Finalizing" }, jobDelayMs: 800 });
    const warnings: string[] = [];
    vi.spyOn(process, "emitWarning").mockImplementation((warning) => {
      warnings.push(String(warning));
    });
    const seen: string[] = [];
    const input = await session.upload(inputFrame(), FOREIGN_WORDS);
    const job = await session.preprocess(input, { type: "StandardScaler", columns: ["a"], outputs: FOREIGN_WORDS });
    await job.wait({ pollIntervalMs: 10, progress: "none", onUpdate: (r) => seen.push(r.status) });
    expect(seen).toContain("Finalizing");
    expect(seen.at(-1)).toBe("succeeded");
    // One warning however many polls saw the word (other warnings, e.g. on the data, are not counted).
    const statusWarnings = warnings.filter((w) => w.includes("job status"));
    expect(statusWarnings).toHaveLength(1);
    expect(statusWarnings[0]).toContain('"Finalizing"');
    expect(statusWarnings[0]).toContain("statusAliases");
    expect(statusWarnings[0]).toContain("terminalStatuses");
  });

  it("an unknown final status keeps the wait going until its timeout; statusAliases teaches it", async () => {
    const words = { statusWords: { succeeded: "Archived" }, jobDelayMs: 30 };
    const { session } = await open(words);
    vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
    await expect(runWorkflow(session, { timeoutMs: 500 })).rejects.toThrow(TimeoutError);

    const taught = await open(words, { statusAliases: { Archived: "succeeded" } });
    const { output, job } = await runWorkflow(taught.session);
    expectScaled(output);
    expect(job.record).toMatchObject({ status: "succeeded", service_status: "Archived" });

    const ends = await open(words, { terminalStatuses: ["Archived"] });
    const error = await runWorkflow(ends.session).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobFailedError);
    expect((error as JobFailedError).status).toBe("Archived");
  });

  it("download-urls results: the outputs are read from the signed URLs, without the bearer token", async () => {
    const { service, session } = await open({ resultShape: "download-urls" });
    const { output } = await runWorkflow(session);
    expectScaled(output);
    expect(service.requests().some((r) => r.path.startsWith("/downloads/"))).toBe(true);
  });

  it("plain-text and HTML token errors become OAuthErrors with the status and a snippet", async () => {
    for (const tokenErrors of ["plain-text", "html"] as const) {
      const service = await start({ tokenErrors });
      const error = await connectTo(service, { clientSecret: "wrong-secret" }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OAuthError);
      const oauth = error as OAuthError;
      expect(oauth.status).toBe(401);
      expect(oauth.code).toBe("invalid_client");
      expect(oauth.message).toMatch(/"(Unauthorized )?invalid client"/);
      expect(oauth.message).toContain(tokenErrors === "html" ? "an HTML page, not JSON" : "plain text, not JSON");
      expect(oauth.message).toContain("MDPS_CLIENT_SECRET");
      expect(oauth.message).not.toContain("<");
    }
  });

  it("a proxy's HTML 502 on reads is retried; on the (not idempotent) send it is a typed error", async () => {
    const retried = await open({ proxyHtml502: { path: /\/get$/, times: 2 } });
    expectScaled((await runWorkflow(retried.session)).output);

    const refused = await open({ proxyHtml502: { path: /\/send$/, times: 1 } });
    const error = await runWorkflow(refused.session).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SendOutcomeUnknownError);
    expect((error as Error).cause).toBeInstanceOf(InternalServerError);
    expect(((error as Error).cause as InternalServerError).status).toBe(502);
    expect((error as Error).message).toContain("mdps did not send it again");
    expect((error as Error).message).toContain("HTML page");
    expect((error as Error).message).toContain("proxy or gateway");
    expect((error as Error).message).toContain("502 Bad Gateway nginx");
  });

  it("an empty 502 is retried on reads and named as empty when it is not", async () => {
    const retried = await open({ emptyBody502Times: 2, emptyBody502Path: /\/(logs|result)$/ });
    const { logs } = await runWorkflow(retried.session);
    expect(logs.length).toBeGreaterThan(0);

    const refused = await open({ emptyBody502Times: 1, emptyBody502Path: /\/upload$/ });
    const error = await runWorkflow(refused.session).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as Error).message).toMatch(/failed with 502\. The answer had an empty body\./);
  });

  it("Retry-After as an HTTP date is waited for (429 on the send, 503 on a read)", async () => {
    for (const retryAfter of [
      { kind: "date", status: 429, times: 1, path: /\/send$/, seconds: 1 },
      { kind: "date", status: 503, times: 1, path: /\/get$/, seconds: 1 },
    ] as const) {
      const { service, session } = await open({ retryAfter });
      const started = Date.now();
      expectScaled((await runWorkflow(session)).output);
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
      const hits = service.requests().filter((r) => retryAfter.path.test(r.path));
      expect(hits.length).toBeGreaterThanOrEqual(2);
    }
  });

  it("202 Accepted on send: the job is the one the answer names", async () => {
    const { service, session } = await open({ sendStatus: 202 });
    const { output, job } = await runWorkflow(session);
    expectScaled(output);
    expect(job.id).toBe(service.jobs()[0]!.id);
  });

  it("health without capabilities, in PascalCase, reads as healthy", async () => {
    const { session } = await open();
    expect(await session.health()).toEqual({ status: "healthy" });
  });
});
