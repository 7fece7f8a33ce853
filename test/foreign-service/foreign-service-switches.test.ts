import { describe, expect, it } from "vitest";
import {
  blobForm,
  finishedJob,
  getJson,
  parseCsvRows,
  pollStatuses,
  postJson,
  preprocessingRequest,
  SAMPLE_CSV,
  sendPreprocessing,
  token,
  upload,
  uploadCsv,
  useForeignServices,
} from "./calls.js";

const start = useForeignServices();

describe("switches", () => {
  it("statusWords renames the states and can add a word before success", async () => {
    const words = {
      queued: "Pending",
      running: "InProgress",
      succeeded: "Completed",
      failed: "Error",
      finalizing: "Finalizing",
    };
    // 600 ms: 240 ms running and 180 ms finalizing, so a poll every few ms sees each word.
    const service = await start({ statusWords: words, jobDelayMs: 600 });
    const accessToken = await token(service);
    const blobId = await uploadCsv(service, accessToken, SAMPLE_CSV);
    const sent = await sendPreprocessing(service, accessToken, preprocessingRequest(service, blobId));
    const { id, status } = (await sent.json()) as { id: string; status: string };
    expect(status).toBe("Pending");
    const polled = await pollStatuses(service, accessToken, id, ["Completed", "Error"]);
    expect(polled.filter((word) => word !== "Pending")).toEqual(["InProgress", "Finalizing", "Completed"]);
  });

  it("resultShape download-urls: absolute signed URLs that need no token", async () => {
    const service = await start({ resultShape: "download-urls" });
    const accessToken = await token(service);
    const { jobId } = await finishedJob(service, accessToken);
    const result = (await (
      await getJson(`${service.url}/api/ml/preprocessing/job/${jobId}/result`, accessToken)
    ).json()) as {
      downloadUrls: string[];
    };
    expect(Object.keys(result).sort()).toEqual(["downloadUrls", "jobId", "status"]);
    const url = result.downloadUrls[0] ?? "";
    expect(url.startsWith(`${service.url}/downloads/`)).toBe(true);
    const fetched = await fetch(url);
    expect(fetched.status).toBe(200);
    expect(parseCsvRows(await fetched.text())[0]).toEqual(["a", "label", "b"]);
    expect((await fetch(url.replace(/sig=[^&]+/, "sig=forged"))).status).toBe(403);
  });

  it("proxyHtml502 answers an HTML 502 to the first N matching requests only", async () => {
    const service = await start({ proxyHtml502: { path: "/api/shared/health", times: 2 } });
    const accessToken = await token(service);
    for (const expected of [502, 502, 200]) {
      const response = await getJson(`${service.url}/api/shared/health`, accessToken);
      expect(response.status).toBe(expected);
      if (expected === 502) {
        expect(response.headers.get("content-type")).toMatch(/^text\/html/);
        expect(await response.text()).toContain("502 Bad Gateway");
      }
    }
    expect(service.requests().filter((r) => r.path === "/api/shared/health")).toHaveLength(3);
  });

  it("emptyBody502Times answers 502 with no body", async () => {
    const service = await start({ emptyBody502Times: 1, emptyBody502Path: (r) => r.path.startsWith("/api/shared") });
    const accessToken = await token(service);
    const first = await getJson(`${service.url}/api/shared/health`, accessToken);
    expect(first.status).toBe(502);
    expect(await first.text()).toBe("");
    expect((await getJson(`${service.url}/api/shared/health`, accessToken)).status).toBe(200);
  });

  it("retryAfter in seconds (429) and as an HTTP-date (503)", async () => {
    const seconds = await start({ retryAfter: { kind: "seconds", status: 429, times: 1, path: /health/ } });
    const first = await getJson(`${seconds.url}/api/shared/health`, await token(seconds));
    expect(first.status).toBe(429);
    expect(first.headers.get("retry-after")).toBe("1");
    expect(await first.json()).toEqual({ message: "too many requests" });

    const date = await start({ retryAfter: { kind: "date", status: 503, times: 1, seconds: 2 } });
    const refused = await fetch(`${date.url}/api/shared/health`);
    expect(refused.status).toBe(503);
    const at = Date.parse(refused.headers.get("retry-after") ?? "");
    expect(at - Date.now()).toBeGreaterThan(1000);
    expect(at - Date.now()).toBeLessThanOrEqual(3000);
    expect((await fetch(`${date.url}/api/shared/health`)).status).toBe(401);
  });

  it("sendStatus 202 answers Accepted with a Location naming the job", async () => {
    const service = await start({ sendStatus: 202 });
    const accessToken = await token(service);
    const blobId = await uploadCsv(service, accessToken, SAMPLE_CSV);
    const response = await sendPreprocessing(service, accessToken, preprocessingRequest(service, blobId));
    expect(response.status).toBe(202);
    const { id } = (await response.json()) as { id: string };
    expect(response.headers.get("location")).toBe(`/api/ml/preprocessing/job/${id}/get`);
    const followed = await getJson(new URL(response.headers.get("location") ?? "", service.url).href, accessToken);
    expect(((await followed.json()) as { id: string }).id).toBe(id);
  });

  it("generic send: job_type Preprocessing, a server-chosen id, every send a new job", async () => {
    const service = await start();
    const accessToken = await token(service);
    const blobId = await uploadCsv(service, accessToken, SAMPLE_CSV);
    const jobId = crypto.randomUUID();
    const body = {
      job_id: jobId,
      model_id: service.modelId,
      job_type: "Preprocessing",
      payload: { input_blob_id: blobId, preprocessing_type: "StandardScaler", feature_columns: ["a"] },
    };
    const first = (await (await postJson(`${service.url}/api/job/send`, accessToken, body)).json()) as { id: string };
    const second = (await (await postJson(`${service.url}/api/job/send`, accessToken, body)).json()) as { id: string };
    expect(first.id).not.toBe(jobId);
    expect(second.id).not.toBe(first.id);
    expect(service.jobs().map((job) => job.clientJobId)).toEqual([jobId, jobId]);
    expect(await pollStatuses(service, accessToken, first.id, undefined, "/api/job")).toContain("Succeeded");
    expect((await getJson(`${service.url}/api/job/${jobId}/get`, accessToken)).status).toBe(404);
    const wrongType = await postJson(`${service.url}/api/job/send`, accessToken, {
      ...body,
      job_type: "preprocessing",
    });
    expect(wrongType.status).toBe(400);
  });

  it("genericJobSend false makes /api/job/send a 404", async () => {
    const service = await start({ genericJobSend: false });
    const response = await postJson(`${service.url}/api/job/send`, await token(service), {});
    expect(response.status).toBe(404);
  });

  it("idempotentSend returns the first job for a repeated job id", async () => {
    const service = await start({ idempotentSend: true });
    const accessToken = await token(service);
    const blobId = await uploadCsv(service, accessToken, SAMPLE_CSV);
    const key = { "idempotency-key": "k-1" };
    const ids = [];
    for (let i = 0; i < 3; i += 1) {
      const response = await sendPreprocessing(service, accessToken, preprocessingRequest(service, blobId), key);
      ids.push(((await response.json()) as { id: string }).id);
    }
    expect(new Set(ids).size).toBe(1);
    expect(service.jobs()).toHaveLength(1);
  });

  it("failFirstSendWith502AfterCreating: a blind retry makes a duplicate", async () => {
    const service = await start({ failFirstSendWith502AfterCreating: true });
    const accessToken = await token(service);
    const blobId = await uploadCsv(service, accessToken, SAMPLE_CSV);
    const first = await sendPreprocessing(service, accessToken, preprocessingRequest(service, blobId));
    expect(first.status).toBe(502);
    expect(first.headers.get("content-type")).toMatch(/^text\/html/);
    expect(service.jobs()).toHaveLength(1);
    expect((await sendPreprocessing(service, accessToken, preprocessingRequest(service, blobId))).status).toBe(200);
    expect(service.jobs()).toHaveLength(2);
  });

  it("jobDelayMs sets how long a job takes", async () => {
    const service = await start({ jobDelayMs: 400 });
    const accessToken = await token(service);
    const started = Date.now();
    const { statuses } = await finishedJob(service, accessToken);
    expect(statuses.at(-1)).toBe("Succeeded");
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
  });

  it("fittedParametersWhen on-request: FittedParameters only in a result read with includeFittedParameters=true", async () => {
    const service = await start({ fittedParameters: "pascal", fittedParametersWhen: "on-request" });
    const accessToken = await token(service);
    const { jobId } = await finishedJob(service, accessToken);
    const url = `${service.url}/api/ml/preprocessing/job/${jobId}/result`;
    const plain = (await (await getJson(url, accessToken)).json()) as Record<string, unknown>;
    expect(plain).not.toHaveProperty("FittedParameters");
    const asked = (await (await getJson(`${url}?includeFittedParameters=true`, accessToken)).json()) as {
      FittedParameters?: { FeatureNamesIn: string[]; Mean: number[] };
    };
    expect(asked.FittedParameters?.FeatureNamesIn).toEqual(["a"]);
    expect(asked.FittedParameters?.Mean[0]).toBe(2.5);
  });

  it("archiveRefusesReads: an Archive blob's download and a job on it are 409; Hot ones are read", async () => {
    const service = await start({ archiveRefusesReads: true, errorBodies: "aspnet" });
    const accessToken = await token(service);
    const form = blobForm({ File: SAMPLE_CSV, Name: "cold.csv", RecordType: "Csv", AccessTier: "Archive" });
    const { blobId } = (await (await upload(service, accessToken, form)).json()) as { blobId: string };
    const download = await getJson(
      `${service.url}/api/model/${service.modelId}/shared/blob/${blobId}/download`,
      accessToken,
    );
    expect(download.status).toBe(409);
    expect(((await download.json()) as { detail: string }).detail).toMatch(/not permitted on an archived blob/);
    const sent = await sendPreprocessing(service, accessToken, preprocessingRequest(service, blobId));
    expect(sent.status).toBe(409);
    expect(service.jobs()).toHaveLength(0);
    const { statuses } = await finishedJob(service, accessToken);
    expect(statuses.at(-1)).toBe("Succeeded");
  });
});
