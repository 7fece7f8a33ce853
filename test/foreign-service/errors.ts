/**
 * How the foreign service refuses a request. The interface fixes only one error body (401 on
 * health is a ProblemDetails); this service's own choice for everything else is a plain JSON
 * `{ message }`, and the token endpoint answers in text (see auth.ts).
 */
import { randomBytes } from "node:crypto";

export class HttpError extends Error {
  override readonly name: string = "HttpError";
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

/** 401 from the bearer check: rendered as RFC 9457 ProblemDetails, on every endpoint, not only health. */
export class UnauthorizedError extends HttpError {
  override readonly name = "UnauthorizedError";
  constructor(detail: string) {
    super(401, detail, { "www-authenticate": 'Bearer error="invalid_token"' });
  }
}

export function badRequest(message: string): HttpError {
  return new HttpError(400, message);
}

export function notFound(message: string): HttpError {
  return new HttpError(404, message);
}

export interface ProblemDetails {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly instance: string;
}

/** ASP.NET's bodies: ValidationProblemDetails for a 400 (the field is the message's first word), else ProblemDetails. */
export function aspnetProblem(error: HttpError): Record<string, unknown> {
  const traceId = `00-${randomBytes(16).toString("hex")}-${randomBytes(8).toString("hex")}-00`;
  if (error.status === 400) {
    const field = /^[A-Za-z_][\w.[\]]*/.exec(error.message)?.[0] ?? "";
    return {
      type: "https://tools.ietf.org/html/rfc9110#section-15.5.1",
      title: "One or more validation errors occurred.",
      status: 400,
      errors: { [field]: [error.message] },
      traceId,
    };
  }
  return { type: "about:blank", title: error.name, status: error.status, detail: error.message, traceId };
}

export function unauthorizedProblem(detail: string, instance: string): ProblemDetails {
  return {
    type: "https://tools.ietf.org/html/rfc9110#section-15.5.2",
    title: "Unauthorized",
    status: 401,
    detail,
    instance,
  };
}
