/**
 * The client's cancel against a scripted HTTP service: which answers mean "this service
 * does not offer cancel" (not declared in health, 405, or 404 when health could not be
 * read), which mean something else (404 for an unknown job when cancel is declared, 409),
 * that health is read once, and the connection hint a caller can set.
 */
import { afterEach, describe, expect, it } from "vitest";
import { MdpsClient } from "../../src/client/client.js";
import {
  ConflictError,
  ConnectionError,
  JobAlreadyEndedError,
  NotFoundError,
  UnsupportedExtensionError,
} from "../../src/client/errors.js";
import { problem, sendJson, startFixture, type Fixture, type Handler } from "./http-fixture.js";

const MODEL = "0b6b5a0e-4d5e-4c1e-9a39-2f3c1d0e7a11";
const JOB = "2c6b5a0e-4d5e-4c1e-9a39-2f3c1d0e7a11";
const health = (capabilities?: string[]) => ({
  status: "healthy",
  region: "local",
  version: "test",
  uptime_seconds: 1,
  checks: {},
  ...(capabilities ? { capabilities } : {}),
});
const cancelledRecord = {
  id: JOB,
  model_id: MODEL,
  job_type: "preprocessing",
  status: "cancelled",
  progress: 0.2,
  phase: "fitting",
  created_at: "2025-01-01T00:00:00Z",
  started_at: "2025-01-01T00:00:01Z",
  finished_at: "2025-01-01T00:00:02Z",
  attempts: 1,
  error: null,
  request: {},
  events: [],
};

let fixture: Fixture | undefined;
let client: MdpsClient | undefined;
afterEach(async () => {
  await client?.close();
  await fixture?.close();
  client = undefined;
  fixture = undefined;
});

/** Closes the current client and service now (afterEach would close them again). */
async function closeBoth(): Promise<void> {
  await client?.close();
  await fixture?.close();
  client = undefined;
  fixture = undefined;
}

async function serve(api: Handler, connectionHint?: string) {
  fixture = await startFixture((req, res, i) => {
    if (req.path === "/api/authorization/exchange") {
      sendJson(res, 200, { access_token: "t1", token_type: "Bearer", expires_in: 3600, scope: "" });
      return;
    }
    return api(req, res, i);
  });
  client = MdpsClient.create({
    baseUrl: fixture.url,
    clientId: "app-1",
    clientSecret: "secret-0123456789",
    modelId: MODEL,
    env: {},
    configFile: false,
    retry: { baseDelayMs: 10, maxDelayMs: 50 },
    connectionHint,
  });
  return { fixture, client };
}

const calls = (f: Fixture, suffix: string) => f.requests.filter((r) => r.path.split("?")[0]!.endsWith(suffix));

describe("cancel: does this service offer it?", () => {
  it("declared: POSTs on the resource's own prefix and returns the record; health is read once", async () => {
    const { fixture, client } = await serve((req, res) =>
      req.path === "/api/shared/health" ? sendJson(res, 200, health(["cancel"])) : sendJson(res, 200, cancelledRecord),
    );
    expect((await client.preprocessing.cancel(JOB)).status).toBe("cancelled");
    expect((await client.jobs.cancel(JOB)).status).toBe("cancelled");
    expect(calls(fixture, "/cancel").map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /api/ml/preprocessing/job/${JOB}/cancel`,
      `POST /api/job/${JOB}/cancel`,
    ]);
    expect(calls(fixture, "/health")).toHaveLength(1);
  });

  it("not declared: one sentence, and no cancel request is sent", async () => {
    const { fixture, client } = await serve((_req, res) => sendJson(res, 200, health(["wait"])));
    const error = await client.jobs.cancel(JOB).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedExtensionError);
    expect((error as Error).message).toBe(
      `This service (${fixture.url}) does not offer cancel (it does not declare it in health's capabilities), so job ${JOB} goes on running.`,
    );
    expect(calls(fixture, "/cancel")).toEqual([]);
  });

  it("health unreadable (403) and 405 or 404 from the endpoint: the same sentence", async () => {
    for (const status of [405, 404]) {
      const { fixture, client } = await serve((req, res) =>
        req.path === "/api/shared/health"
          ? sendJson(res, 403, problem(403, "Forbidden", "missing scope shared.health.read"))
          : sendJson(res, status, problem(status, "Nope", "no such route")),
      );
      const error = await client.jobs.cancel(JOB).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnsupportedExtensionError);
      expect((error as Error).message).toBe(
        `This service (${fixture.url}) does not offer cancel (it answered ${status} to POST /api/job/${JOB}/cancel), so job ${JOB} goes on running.`,
      );
      await closeBoth();
    }
  });

  it("declared and 404: the job is unknown (NotFoundError), not a missing feature", async () => {
    const { client } = await serve((req, res) =>
      req.path === "/api/shared/health"
        ? sendJson(res, 200, health(["cancel"]))
        : sendJson(res, 404, problem(404, "Not Found", `job ${JOB} not found`)),
    );
    await expect(client.jobs.cancel(JOB)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("409 with job_status: JobAlreadyEndedError; 409 without it stays a ConflictError", async () => {
    let withStatus = true;
    const { client } = await serve((req, res) => {
      if (req.path === "/api/shared/health") {
        sendJson(res, 200, health(["cancel"]));
        return;
      }
      const extra = withStatus ? { job_id: JOB, job_status: "failed" } : {};
      sendJson(res, 409, problem(409, "Conflict", "The job already ended as failed.", extra));
    });
    const ended = await client.jobs.cancel(JOB).catch((e: unknown) => e);
    expect(ended).toBeInstanceOf(JobAlreadyEndedError);
    expect(ended).toMatchObject({ status: 409, code: "job_already_ended", jobStatus: "failed", jobId: JOB });
    withStatus = false;
    const other = await client.jobs.cancel(JOB).catch((e: unknown) => e);
    expect(other).toBeInstanceOf(ConflictError);
    expect(other).not.toBeInstanceOf(JobAlreadyEndedError);
  });
});

describe("connection hint", () => {
  it("defaults to the URL settings; a caller (Session.local) can name its own cause", async () => {
    // A port that was listening a moment ago and is closed now: refused.
    const { fixture } = await serve((_req, res) => sendJson(res, 200, health()));
    const url = fixture.url;
    await closeBoth();
    const hinted = MdpsClient.create({
      baseUrl: url,
      clientId: "a",
      clientSecret: "b",
      modelId: MODEL,
      env: {},
      configFile: false,
      retry: { maxRetries: 0 },
      connectionHint: "The local service is gone.",
    });
    const plain = MdpsClient.create({
      baseUrl: url,
      clientId: "a",
      clientSecret: "b",
      modelId: MODEL,
      env: {},
      configFile: false,
      retry: { maxRetries: 0 },
    });
    try {
      const a = await hinted.health.get().catch((e: unknown) => e);
      expect(a).toBeInstanceOf(ConnectionError);
      expect((a as Error).message).toMatch(/could not reach .*\. The local service is gone\.$/);
      const b = await plain.health.get().catch((e: unknown) => e);
      expect((b as Error).message).toContain("(MDPS_BASE_URL / MDPS_AUTH_URL)");
    } finally {
      await hinted.close();
      await plain.close();
    }
  });
});
