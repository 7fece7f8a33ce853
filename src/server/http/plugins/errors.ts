import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { BLOB_FORM_PARTS_SENTENCE } from "../../../core/contract/blob-fields.js";
import { fieldPath } from "../../../core/errors/zod-issues.js";
import { HttpProblem, validationProblem, type FieldErrors } from "../problems.js";
import { BlobDamagedError, blobDamagedProblem } from "../../blob-bytes/blob-check.js";
import { storageProblem } from "../../store/storage-fault.js";

const MULTIPART_HELP = `Send multipart/form-data with ${BLOB_FORM_PARTS_SENTENCE}.`;

/**
 * Fastify's and @fastify/multipart's own 4xx errors, with a detail that says how to
 * fix the request. Their messages are not echoed: a JSON parse error quotes the body,
 * which may hold a key.
 */
function frameworkProblem(err: FastifyError, maxBlobBytes: number): HttpProblem | undefined {
  switch (err.code) {
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
    case "FST_INVALID_MULTIPART_CONTENT_TYPE":
      return new HttpProblem(
        415,
        `This endpoint does not accept that Content-Type. JSON endpoints take application/json; blob upload and update: ${MULTIPART_HELP}`,
      );
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return new HttpProblem(400, "The body is empty; send a JSON object with Content-Type: application/json.");
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return new HttpProblem(
        400,
        "The body is not valid JSON; send a JSON object with Content-Type: application/json.",
      );
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new HttpProblem(
        413,
        "The JSON body is too large (limit 1 MiB). Send data as a blob and refer to it by id.",
      );
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return new HttpProblem(400, "Content-Length does not match the body that was sent.");
    case "FST_REQ_FILE_TOO_LARGE":
      return new HttpProblem(
        413,
        `The File part is larger than this service's limit of ${maxBlobBytes} bytes. Split the dataset or ask the operator to raise the limit.`,
      );
    case "FST_FILES_LIMIT":
      return validationProblem({ File: ["must be sent once; the request had more than one File part"] });
    case "FST_PARTS_LIMIT":
    case "FST_FIELDS_LIMIT":
      return new HttpProblem(413, `Too many multipart parts. ${MULTIPART_HELP}`);
    case "FST_PROTO_VIOLATION":
      return validationProblem(
        { $: ["a part is named like a JavaScript object member (__proto__, constructor, prototype); rename it"] },
        MULTIPART_HELP,
      );
    case "FST_ERR_VALIDATION":
      return undefined;
  }
  if (err.message === "aborted" || err.code === "ECONNRESET" || err.code === "ERR_STREAM_PREMATURE_CLOSE") {
    // The client closed the connection while sending: nobody reads this answer.
    return new HttpProblem(400, "The connection was closed before the request body was complete.");
  }
  if (
    err.message === "Unexpected end of form" ||
    err.message.includes("terminated early") ||
    err.message.startsWith("Malformed part header")
  ) {
    return new HttpProblem(400, `The multipart body ended early or is malformed. ${MULTIPART_HELP}`);
  }
  return undefined;
}

function toProblem(err: FastifyError, request: FastifyRequest, maxBlobBytes: number): HttpProblem {
  if (err instanceof HttpProblem) return err;
  // The issues are read through fastify's own type: the guard's names a module
  // (fastify/types/schema) that this project's resolution does not find.
  const issues = err.validation;
  if (issues && hasZodFastifySchemaValidationErrors(err)) {
    // Null prototype: a field path such as `constructor` must not find Object.prototype's member.
    const errors = Object.create(null) as FieldErrors;
    for (const issue of issues) {
      const path = issue.instancePath
        .split("/")
        .filter(Boolean)
        .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
      const name = fieldPath(path);
      // zod's issues always carry a message; fastify's type leaves it optional.
      (errors[name] ??= []).push(issue.message ?? "is invalid");
    }
    const where =
      err.validationContext === "params" ? "path" : err.validationContext === "querystring" ? "query" : "body";
    return validationProblem(
      errors,
      `The request ${where} has invalid fields: ${Object.keys(errors).join(", ")}. See 'errors' for what each needs.`,
    );
  }
  const framework = frameworkProblem(err, maxBlobBytes);
  if (framework) return framework;
  const status = err.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return new HttpProblem(status, `The request was rejected: ${err.message}`);
  }
  if (err instanceof BlobDamagedError) {
    request.log.error({ blobId: err.blobId, reason: err.reason }, "a blob's file is damaged");
    return blobDamagedProblem(err);
  }
  const storage = storageProblem(err);
  if (storage) {
    request.log.error({ err }, storage.detail);
    return storage;
  }
  request.log.error({ err }, "unhandled error");
  return new HttpProblem(
    500,
    "The service hit an unexpected error. It has been logged; retry, and report it if it persists.",
  );
}

export function sendProblem(reply: FastifyReply, problem: HttpProblem, instance: string): FastifyReply {
  for (const [name, value] of Object.entries(problem.extra.headers ?? {})) reply.header(name, value);
  return reply.code(problem.status).type("application/problem+json").send(problem.toProblem(instance));
}

/** The one place where errors become application/problem+json; never a stack trace. */
export const errorsPlugin = fp(
  (app: FastifyInstance, options: { maxBlobBytes: number }, done: (err?: Error) => void) => {
    app.setErrorHandler((err: FastifyError, request, reply) => {
      const problem = toProblem(err, request, options.maxBlobBytes);
      if (problem.status < 500)
        request.log.info({ status: problem.status, code: err.code }, problem.extra.title ?? "client error");
      return sendProblem(reply, problem, request.url.split("?")[0]!);
    });
    app.setNotFoundHandler((request, reply) =>
      sendProblem(
        reply,
        new HttpProblem(
          404,
          `No endpoint ${request.method} ${request.url.split("?")[0]}. The model API lives under /api/model/{modelId}/shared/blob/..., /api/job/..., /api/ml/preprocessing/job/... and /api/shared/health.`,
        ),
        request.url.split("?")[0]!,
      ),
    );
    done();
  },
  { name: "mdps-errors", fastify: "5.x" },
);
