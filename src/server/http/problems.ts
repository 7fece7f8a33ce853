import type { FieldErrors, ProblemDetails } from "../../core/contract/index.js";

export type { FieldErrors };

const TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  409: "Conflict",
  412: "Precondition Failed",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  416: "Range Not Satisfiable",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
  507: "Insufficient Storage",
};

/** RFC 9110 section of each status, as ASP.NET's ProblemDetails use for `type`. */
const SECTIONS: Record<number, string> = {
  400: "15.5.1",
  401: "15.5.2",
  403: "15.5.4",
  404: "15.5.5",
  405: "15.5.6",
  406: "15.5.7",
  409: "15.5.10",
  412: "15.5.13",
  413: "15.5.14",
  415: "15.5.16",
  416: "15.5.17",
  500: "15.6.1",
  503: "15.6.4",
};

export function problemType(status: number): string {
  if (status === 429) return "https://www.rfc-editor.org/rfc/rfc6585#section-4";
  if (status === 507) return "https://www.rfc-editor.org/rfc/rfc4918#section-11.5";
  const section = SECTIONS[status];
  return section ? `https://www.rfc-editor.org/rfc/rfc9110#section-${section}` : "about:blank";
}

export function statusTitle(status: number): string {
  return TITLES[status] ?? "Error";
}

/**
 * An error meant for the caller: thrown anywhere in a request, rendered as
 * application/problem+json by the one error handler. `detail` must say what was
 * wrong and how to fix it, and must never contain a secret.
 */
export class HttpProblem extends Error {
  override name = "HttpProblem";
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly extra: {
      title?: string;
      errors?: FieldErrors;
      headers?: Record<string, string>;
      body?: Record<string, unknown>;
    } = {},
  ) {
    super(detail);
  }

  toProblem(instance: string): ProblemDetails {
    return {
      type: problemType(this.status),
      title: this.extra.title ?? statusTitle(this.status),
      status: this.status,
      detail: this.detail,
      instance,
      ...(this.extra.errors ? { errors: this.extra.errors } : {}),
      ...this.extra.body,
    };
  }
}

export function validationProblem(errors: FieldErrors, detail?: string): HttpProblem {
  const fields = Object.keys(errors);
  return new HttpProblem(
    400,
    detail ??
      `The request has ${fields.length === 1 ? "an invalid field" : "invalid fields"}: ${fields.join(", ")}. See 'errors' for what each needs.`,
    { title: "One or more validation errors occurred.", errors },
  );
}

export const notFound = (what: string, id: string): HttpProblem =>
  new HttpProblem(404, `No ${what} with id ${id} exists in this model. Check the id; it may have been deleted.`);
