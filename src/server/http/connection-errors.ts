import { STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { FastifyReply, FastifyRequest } from "fastify";
import { HttpProblem } from "./problems.js";

/**
 * Requests Node's HTTP parser rejects before Fastify routes them (bad framing, a
 * header block over the size limit, a request that took too long) and the two
 * rejects Fastify's router makes (an undecodable path, a path parameter too long)
 * answered as application/problem+json like every other error. No part of the
 * request (its URL may carry a token) is echoed, and the socket is then closed: after
 * a framing error the byte stream cannot be trusted.
 */
export function clientErrorProblem(err: NodeJS.ErrnoException): HttpProblem {
  switch (err.code) {
    case "HPE_HEADER_OVERFLOW":
      return new HttpProblem(
        431,
        "The request line and headers are larger than this service accepts (16 KiB). Send long values in the body, not in the URL or headers.",
        { title: "Request Header Fields Too Large" },
      );
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return new HttpProblem(408, "The request was not received in time; send it again.", {
        title: "Request Timeout",
      });
    default:
      return new HttpProblem(
        400,
        "The request is not valid HTTP/1.1 (its request line, headers or body framing could not be parsed).",
      );
  }
}

/** Fastify's `clientErrorHandler`: writes the problem straight to the socket. */
export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === "ECONNRESET" || socket.destroyed) return;
  const problem = clientErrorProblem(err);
  const body = JSON.stringify(problem.toProblem(""));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? "Error"}\r\n` +
        `Content-Type: application/problem+json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/**
 * Node's answer to an `Expect` header other than `100-continue` (its own 417 is an
 * empty body): the same status as problem+json.
 */
export function answerUnknownExpectation(request: IncomingMessage, response: ServerResponse): void {
  const problem = new HttpProblem(
    417,
    "This service understands only `Expect: 100-continue`; remove the Expect header or send that value.",
    { title: "Expectation Failed" },
  );
  const body = JSON.stringify(problem.toProblem(request.url?.split("?")[0] ?? ""));
  response.writeHead(417, {
    "content-type": "application/problem+json; charset=utf-8",
    "content-length": Buffer.byteLength(body),
    connection: "close",
  });
  response.end(body);
}

/** Fastify's `frameworkErrors`: the router's rejects, before any route or hook runs. */
export function answerFrameworkError(err: { code?: string }, request: FastifyRequest, reply: FastifyReply): void {
  const problem =
    err.code === "FST_ERR_MAX_PARAM_LENGTH"
      ? new HttpProblem(414, "A path segment is longer than any id this service uses; check the URL.", {
          title: "URI Too Long",
        })
      : new HttpProblem(400, "The URL path is not validly percent-encoded; check the URL.");
  void reply
    .code(problem.status)
    .type("application/problem+json")
    .send(problem.toProblem(request.url.split("?")[0] ?? ""));
}
