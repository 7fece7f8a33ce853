import { describe, expect, it } from "vitest";
import { makeAPIError, makeOAuthError } from "../../src/client/error-factory.js";
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  JobFailedError,
  MdpsError,
  NotFoundError,
  OAuthError,
  PayloadTooLargeError,
  PermissionDeniedError,
  PreconditionFailedError,
  RateLimitError,
  UnsupportedMediaTypeError,
  ValidationError,
} from "../../src/client/errors.js";

const problem = (status: number, title: string, detail: string, extra: object = {}) => ({
  type: "about:blank",
  title,
  status,
  detail,
  instance: "/api/x",
  ...extra,
});

describe("makeAPIError", () => {
  const cases: Array<[number, new (...a: never[]) => APIError, string, RegExp]> = [
    [400, BadRequestError, "bad_request", /Fix the request/],
    [401, AuthenticationError, "unauthenticated", /MDPS_CLIENT_ID/],
    [403, PermissionDeniedError, "permission_denied", /scope/],
    [404, NotFoundError, "not_found", /Check the id/],
    [409, ConflictError, "conflict", /Wait for the job/],
    [412, PreconditionFailedError, "precondition_failed", /Download it again/],
    [413, PayloadTooLargeError, "payload_too_large", /size limit/],
    [415, UnsupportedMediaTypeError, "unsupported_media_type", /content type/],
    [429, RateLimitError, "rate_limited", /wait/],
    [500, InternalServerError, "internal_server_error", /try again later/],
    [503, InternalServerError, "internal_server_error", /try again later/],
  ];
  for (const [status, ctor, code, advice] of cases) {
    it(`${status} -> ${ctor.name}`, () => {
      const err = makeAPIError({
        status,
        body: problem(status, "Some Title", "what went wrong"),
        headers: { "x-request-id": "req-7", "retry-after": "2" },
        call: "GET /api/shared/health",
      });
      expect(err).toBeInstanceOf(ctor);
      expect(err).toBeInstanceOf(APIError);
      expect(err).toBeInstanceOf(MdpsError);
      expect(err).toBeInstanceOf(Error);
      expect(err.name).toBe(ctor.name);
      expect(err.code).toBe(code);
      expect(err.status).toBe(status);
      expect(err.title).toBe("Some Title");
      expect(err.detail).toBe("what went wrong");
      expect(err.instance).toBe("/api/x");
      expect(err.requestId).toBe("req-7");
      expect(err.message).toContain("GET /api/shared/health failed with");
      expect(err.message).toContain("what went wrong");
      expect(err.message).toContain("req-7");
      expect(err.message).toMatch(advice);
    });
  }

  it("does not repeat advice the service's detail already gives", () => {
    const err = makeAPIError({
      status: 404,
      body: problem(404, "Not Found", "No job with id x exists in this model. Check the id; it may have been deleted."),
      headers: {},
      call: "GET /api/job/x/get",
    });
    expect(err.message.match(/Check the id/g)).toHaveLength(1);
  });

  it("400 with field errors -> ValidationError naming the fields", () => {
    const err = makeAPIError({
      status: 400,
      body: problem(400, "Validation failed", "2 fields", {
        errors: { "preprocessing_params.norm": ["must be l1, l2 or max"], Name: ["required"] },
      }),
      headers: {},
      call: "POST /api/job/send",
    });
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toBeInstanceOf(BadRequestError);
    expect(err.code).toBe("validation_failed");
    expect(err.errors).toEqual({ "preprocessing_params.norm": ["must be l1, l2 or max"], Name: ["required"] });
    expect(err.message).toContain("preprocessing_params.norm: must be l1, l2 or max");
    expect(err.message).toContain("Name: required");
  });

  it("rate limit exposes Retry-After", () => {
    const err = makeAPIError({
      status: 429,
      body: problem(429, "Too Many", "slow down"),
      headers: { "retry-after": "3" },
      call: "GET /x",
    });
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err).toMatchObject({ retryAfterMs: 3000 });
  });

  it("an unknown status or a non-JSON body still gives an APIError", () => {
    const err = makeAPIError({ status: 418, body: "I'm a teapot", headers: {}, call: "GET /tea" });
    expect(err.constructor).toBe(APIError);
    expect(err.code).toBe("http_418");
    expect(err.detail).toBe("I'm a teapot");
    expect(err.message).toContain("418");
  });
});

describe("makeOAuthError", () => {
  it("carries the RFC 6749 code and says what to do", () => {
    const err = makeOAuthError({
      status: 401,
      body: { error: "invalid_client", error_description: "Client authentication failed." },
      headers: {},
      call: "POST /api/authorization/exchange",
    });
    expect(err).toBeInstanceOf(OAuthError);
    expect(err.code).toBe("invalid_client");
    expect(err).toMatchObject({ error: "invalid_client" });
    expect(err.status).toBe(401);
    expect(err.message).toContain("MDPS_CLIENT_SECRET");
    for (const code of ["invalid_scope", "invalid_request", "unsupported_grant_type"]) {
      const e = makeOAuthError({ status: 400, body: { error: code }, headers: {}, call: "POST /t" });
      expect(e.code).toBe(code);
      expect(e.name).toBe("OAuthError");
    }
  });
});

describe("JobFailedError", () => {
  const init = (status: string) => ({ jobId: "j1", status, title: "t", detail: "d.", record: { status } });

  it("has one code per way a job ends badly, and says what to do next", () => {
    const failed = new JobFailedError(init("failed"));
    expect([failed.code, failed.name, failed.status]).toEqual(["job_failed", "JobFailedError", "failed"]);
    expect(failed.message).toBe(
      "Job j1 failed: t: d. See job.logs() for the details; fix the input or parameters and submit again.",
    );
    const timedOut = new JobFailedError(init("timed_out"));
    expect(timedOut.code).toBe("job_timed_out");
    expect(timedOut.message).toBe(
      "Job j1 timed out: t: d. Raise `jobTimeoutMs` (request_timeout_seconds) or send less data.",
    );
    const cancelled = new JobFailedError(init("cancelled"));
    expect(cancelled.code).toBe("job_cancelled");
    expect(cancelled.message).toBe("Job j1 was cancelled: t: d. Submit it again if you still need its result.");
    expect(cancelled.record).toEqual({ status: "cancelled" });
  });
});
