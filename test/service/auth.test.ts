import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blobRecord, ENDPOINT_SCOPES, jobRecord } from "../../src/core/contract/index.js";
import {
  ALL_SCOPES,
  Api,
  expectProblem,
  Harness,
  json,
  preprocessingBody,
  tokenFor,
  type AppCredentials,
  type Reply,
  type InjectedService,
} from "./service-harness.js";

const h = new Harness();
let service: InjectedService;
let mine: AppCredentials;
let theirs: AppCredentials;
let api: Api;
let theirApi: Api;
let blobId: string;
let theirBlobId: string;
let theirJobId: string;

beforeAll(async () => {
  service = await h.inject();
  mine = h.app(service.dataDir);
  theirs = h.app(service.dataDir);
  api = new Api(service, await tokenFor(service, mine), mine.modelId);
  theirApi = new Api(service, await tokenFor(service, theirs), theirs.modelId);
  blobId = json(blobRecord, await api.upload("a,b\n1,2\n")).id;
  theirBlobId = json(blobRecord, await theirApi.upload("a,b\n1,2\n")).id;
  theirJobId = json(
    jobRecord,
    await theirApi.call("POST", "/api/ml/preprocessing/job/send", preprocessingBody(theirs.modelId, theirBlobId)),
  ).id;
});
afterAll(() => h.cleanup());

type Endpoint = {
  name: string;
  scope: string;
  call: (a: Api) => Promise<Reply>;
};

const endpoints = (): Endpoint[] => {
  const job = randomUUID();
  return [
    { name: "blob upload", scope: ENDPOINT_SCOPES.blobUpload, call: (a) => a.upload("a\n1\n") },
    { name: "blob update", scope: ENDPOINT_SCOPES.blobUpdate, call: (a) => a.upload("a\n2\n", undefined, { blobId }) },
    {
      name: "blob download",
      scope: ENDPOINT_SCOPES.blobDownload,
      call: (a) => a.call("GET", a.blobPath(blobId, "download")),
    },
    {
      name: "blob delete",
      scope: ENDPOINT_SCOPES.blobDelete,
      call: (a) => a.call("DELETE", a.blobPath(randomUUID(), "delete")),
    },
    { name: "health", scope: ENDPOINT_SCOPES.health, call: (a) => a.call("GET", "/api/shared/health") },
    {
      name: "preprocessing send",
      scope: ENDPOINT_SCOPES.jobSend,
      call: (a) => a.call("POST", "/api/ml/preprocessing/job/send", preprocessingBody(mine.modelId, blobId)),
    },
    {
      name: "job send",
      scope: ENDPOINT_SCOPES.jobSend,
      call: (a) =>
        a.call("POST", "/api/job/send", {
          job_id: randomUUID(),
          model_id: mine.modelId,
          job_type: "preprocessing",
          payload: preprocessingBody(mine.modelId, blobId),
        }),
    },
    ...["/api/job", "/api/ml/preprocessing/job"].flatMap((prefix) =>
      ["get", "logs", "result"].map((action) => ({
        name: `${prefix}/{id}/${action}`,
        scope: ENDPOINT_SCOPES.jobRead,
        call: (a: Api) => a.call("GET", `${prefix}/${job}/${action}`),
      })),
    ),
  ];
};

describe("model API authentication", () => {
  it.each(endpoints().map((e) => [e.name, e] as const))(
    "%s: 401 with WWW-Authenticate without a valid token",
    async (_name, endpoint) => {
      for (const token of [undefined, "not-a-real-token"]) {
        const reply = await endpoint.call(new Api(service, token, mine.modelId));
        const problem = expectProblem(reply, 401);
        expect(reply.headers.get("www-authenticate")).toMatch(/^Bearer/);
        expect(problem.detail).toMatch(/token|Authorization/);
      }
    },
  );

  it("a malformed Authorization header is a 401", async () => {
    const response = await service.fetch(`${service.url}/api/shared/health`, {
      headers: { authorization: "Basic abc" },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  it.each(endpoints().map((e) => [e.name, e] as const))(
    "%s: 403 naming the scope when the token lacks it",
    async (_name, endpoint) => {
      const others = ALL_SCOPES.filter((s) => s !== endpoint.scope);
      const lacking = new Api(service, await tokenFor(service, mine, others.join(" ")), mine.modelId);
      const problem = expectProblem(await endpoint.call(lacking), 403);
      expect(problem.detail).toContain(endpoint.scope);
      const only = new Api(service, await tokenFor(service, mine, endpoint.scope), mine.modelId);
      expect([401, 403]).not.toContain((await endpoint.call(only)).status);
    },
  );

  it("a model_id of another model in the path or body is a 403", async () => {
    expectProblem(await api.upload("a\n1\n", undefined, { modelId: theirs.modelId }), 403);
    expectProblem(await api.call("GET", api.blobPath(theirBlobId, "download", theirs.modelId)), 403);
    expectProblem(await api.call("DELETE", api.blobPath(theirBlobId, "delete", theirs.modelId)), 403);
    const body = preprocessingBody(theirs.modelId, theirBlobId);
    expect(expectProblem(await api.call("POST", "/api/ml/preprocessing/job/send", body), 403).detail).toContain(
      theirs.modelId,
    );
    expectProblem(
      await api.call("POST", "/api/job/send", {
        job_id: randomUUID(),
        model_id: theirs.modelId,
        job_type: "preprocessing",
        payload: body,
      }),
      403,
    );
    expectProblem(
      await api.call("POST", "/api/job/send", {
        job_id: randomUUID(),
        model_id: mine.modelId,
        job_type: "preprocessing",
        payload: body,
      }),
      403,
    );
  });

  it("a blob or job of another model is a 404, as if it did not exist", async () => {
    const missing = expectProblem(await api.call("GET", api.blobPath(theirBlobId, "download")), 404);
    const absent = expectProblem(await api.call("GET", api.blobPath(randomUUID(), "download")), 404);
    expect(missing.title).toBe(absent.title);
    expectProblem(await api.upload("a\n1\n", undefined, { blobId: theirBlobId }), 404);
    expectProblem(await api.call("DELETE", api.blobPath(theirBlobId, "delete")), 404);
    expectProblem(
      await api.call("POST", "/api/ml/preprocessing/job/send", preprocessingBody(mine.modelId, theirBlobId)),
      404,
    );
    for (const action of ["get", "logs", "result"]) {
      expectProblem(await api.call("GET", `/api/job/${theirJobId}/${action}`), 404);
      expectProblem(await api.call("GET", `/api/ml/preprocessing/job/${theirJobId}/${action}`), 404);
    }
    // ...while the owner still sees both.
    expect((await theirApi.call("GET", `/api/job/${theirJobId}/get`)).status).toBe(200);
    expect((await theirApi.download(theirBlobId)).status).toBe(200);
  });
});
