import { oauthError, problemDetails } from "../core/contract/problem.js";
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  OAuthError,
  PayloadTooLargeError,
  PermissionDeniedError,
  PreconditionFailedError,
  RateLimitError,
  UnsupportedMediaTypeError,
  ValidationError,
  type APIErrorInit,
  type FieldErrors,
} from "./errors.js";

export interface ErrorResponse {
  readonly status: number;
  /** Parsed JSON body, or the text when it was not JSON, or undefined. */
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string>>;
  /** `METHOD path`, named in the message so the failing call is obvious. */
  readonly call: string;
}

type Ctor = new (init: APIErrorInit) => APIError;

/**
 * Per status: the error class, its code, mdps's advice, and (`givenBy`) the words by which a
 * service's own detail already gives that advice, so the message does not say it twice.
 */
type StatusKind = { ctor: Ctor; code: string; advice: string; givenBy?: RegExp };
const BY_STATUS: Record<number, StatusKind> = {
  400: { ctor: BadRequestError, code: "bad_request", advice: "Fix the request and send it again." },
  401: {
    ctor: AuthenticationError,
    code: "unauthenticated",
    advice:
      "Check the client id and secret (MDPS_CLIENT_ID, MDPS_CLIENT_SECRET) and that MDPS_AUTH_URL and MDPS_BASE_URL are the same service.",
  },
  403: {
    ctor: PermissionDeniedError,
    code: "permission_denied",
    // Replaced by forbiddenAdvice, which reads the service's words.
    advice: "Check the model id and the application's scopes.",
  },
  404: {
    ctor: NotFoundError,
    code: "not_found",
    advice: "Check the id; blobs and jobs of another model are reported as not found.",
  },
  409: { ctor: ConflictError, code: "conflict", advice: "Wait for the job to finish, or use a new job id." },
  412: {
    ctor: PreconditionFailedError,
    code: "precondition_failed",
    advice: "Download it again, then update with its new ETag (the blob changed since you read it).",
  },
  413: {
    ctor: PayloadTooLargeError,
    code: "payload_too_large",
    advice: "The file is over the service's size limit: split it or ask for a higher limit.",
    givenBy: /\b(split|raise|smaller)\b/i,
  },
  415: {
    ctor: UnsupportedMediaTypeError,
    code: "unsupported_media_type",
    advice: "Send the body in the content type the endpoint expects.",
  },
  429: {
    ctor: RateLimitError,
    code: "rate_limited",
    advice: "Too many requests: wait (see retryAfterMs) and try again, or send fewer calls at once.",
  },
};

const SERVER: StatusKind = {
  ctor: InternalServerError,
  code: "internal_server_error",
  advice: "The service failed; try again later and quote the request id if it persists.",
};

export function requestIdOf(headers: Readonly<Record<string, string>>, body?: unknown): string | undefined {
  const header = headers["x-request-id"] ?? headers["request-id"] ?? headers["x-correlation-id"];
  if (header !== undefined || typeof body !== "object" || body === null) return header;
  // ASP.NET's ProblemDetails carry `traceId`; others `requestId`, `request_id`, `correlationId`.
  const b = body as Record<string, unknown>;
  for (const key of ["traceId", "requestId", "request_id", "trace_id", "correlationId", "correlation_id"]) {
    const value = b[key];
    if (typeof value === "string" && value.trim() !== "") return value.trim();
  }
  return undefined;
}

const TIER_ADVICE =
  "The blob is in an archive (or cold) access tier, where the service does not read it: move it to a hot " +
  "tier (rehydrate it) in the service's own way first, or upload the data again (mdps uploads to the hot tier).";

/** A 409 whose words are about an archived blob or its access tier. */
function isTierConflict(status: number, said: string): boolean {
  return status === 409 && /archiv|rehydrat|access[\s_-]?tier/i.test(said);
}

const SCOPE_ADVICE = "Give the application the missing scope in the portal (and list it in MDPS_SCOPES if set).";

/**
 * A 403 is a scope the token lacks or a model id the application may not use; the service's
 * words say which (a service that says neither gets both remedies). A wrong model id is
 * the commoner mistake, and its fix is in the caller's configuration, not in the portal.
 */
function forbiddenAdvice(call: string, said: string): string {
  if (/\bscope/i.test(said)) return SCOPE_ADVICE;
  const where =
    "MDPS_MODEL_ID (modelId in Session.connect(), model_id in the config profile; `mdps configure` asks for it)";
  // The service said what is wrong with the model id: add only where mdps takes it from.
  if (/\bmodel/i.test(said)) return `Set ${where} to the one the portal shows on the application's page.`;
  const id = /\/model\/([^/\s]+)/.exec(call)?.[1];
  const model =
    `The model id${id ? ` ${id}` : ""} is not known to this application or not allowed for it: set ${where} ` +
    "to the model id the application was registered for, as the portal shows it on the application's page.";
  return `${model} Or a scope is missing: ${SCOPE_ADVICE.replace(/^G/, "g")}`;
}

/**
 * The general advice for a status, said of what the service's words (`said`) or the call
 * were about: a 409 of an archived blob is not a job's, also when a job send met it.
 */
function adviceFor(status: number, call: string, said: string, fallback: string): string {
  if (isTierConflict(status, said)) return TIER_ADVICE;
  if (status === 403) return forbiddenAdvice(call, said);
  if (status === 409 && /\/blob\//.test(call)) {
    return (
      "The service refused the blob in its current state: if it is in a cold or archive access tier, " +
      "move it to a hot tier (rehydrate it) in the service's own way first, or ask its operators."
    );
  }
  return fallback;
}

/**
 * What a body that is not ProblemDetails says, short: a JSON `{message}` / `{error}` /
 * `{detail}`, or text (an HTML page's visible text, tags and `<head>` dropped), at most
 * 200 characters. Undefined for an empty body.
 */
export function bodySnippet(body: unknown): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") {
    const text = isHtml(body)
      ? body
          .replace(/<head[\s\S]*?<\/head>/gi, " ")
          .replace(/<(script|style)[\s\S]*?<\/\1>/gi, " ")
          .replace(/<[^>]*>/g, " ")
          .replace(/&nbsp;/g, " ")
          .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
          .replace(/&lt;/g, "<")
          .replace(/&gt;/g, ">")
          .replace(/&quot;/g, '"')
          .replace(/&amp;/g, "&")
      : body;
    const squeezed = text.replace(/\s+/g, " ").trim();
    if (squeezed === "") return undefined;
    return squeezed.length > 200 ? `${squeezed.slice(0, 199)}…` : squeezed;
  }
  if (typeof body === "object") {
    const b = body as Record<string, unknown>;
    const nested = typeof b.error === "object" && b.error !== null ? (b.error as Record<string, unknown>) : undefined;
    for (const value of [b.detail, b.message, b.error_description, b.error, nested?.message, b.title]) {
      if (typeof value === "string" && value.trim() !== "") return bodySnippet(value);
    }
    return bodySnippet(JSON.stringify(body));
  }
  return typeof body === "number" || typeof body === "boolean" ? String(body) : undefined;
}

function isHtml(text: string): boolean {
  return /^\s*(<!doctype html|<html|<head|<body|<\?xml)/i.test(text) || /<\/(html|body|h1|p|center)>/i.test(text);
}

/** A sentence on how a body that is not the service's JSON looked: where it likely came from. */
function bodyKind(res: ErrorResponse): string | undefined {
  if (res.body === undefined || res.body === "") return "The answer had an empty body";
  if (typeof res.body !== "string") return undefined;
  const type = res.headers["content-type"] ?? "";
  if (type.includes("html") || isHtml(res.body)) {
    return res.status === 502 || res.status === 503 || res.status === 504
      ? "The answer was an HTML page, not the service's JSON: likely from a proxy or gateway in front of the service"
      : "The answer was an HTML page, not JSON";
  }
  return "The answer was plain text, not JSON";
}

/** One place that turns an HTTP error response into the right error class. */
export function makeAPIError(res: ErrorResponse): APIError {
  const parsed = problemDetails.safeParse(res.body);
  const problem = parsed.success ? parsed.data : undefined;
  const errors: FieldErrors | undefined = problem?.errors;
  const isValidation = res.status === 400 && errors !== undefined && Object.keys(errors).length > 0;
  const kind: StatusKind | undefined = isValidation
    ? { ctor: ValidationError, code: "validation_failed", advice: "Correct the fields named above." }
    : (BY_STATUS[res.status] ?? (res.status >= 500 ? SERVER : undefined));
  const requestId = requestIdOf(res.headers, res.body);
  const title = problem?.title;
  // Not ProblemDetails (another service's `{message}`, a proxy's HTML page, plain text,
  // nothing at all): a short snippet of what came, and what kind of body it was. A
  // ValidationProblemDetails has a title and no detail: the title is not said twice.
  const snippet = problem?.detail ?? bodySnippet(res.body);
  const detail = snippet === title ? undefined : snippet;
  const bodyNote = problem ? undefined : bodyKind(res);
  const parts = [`${res.call} failed with ${res.status}${title ? ` ${title}` : ""}`];
  if (bodyNote) parts.push(bodyNote);
  if (detail) parts.push(detail);
  if (isValidation) parts.push(formatFieldErrors(errors));
  const said = `${title ?? ""} ${detail ?? ""}`;
  const advice = adviceFor(
    res.status,
    res.call,
    said,
    kind?.advice ?? "See the service's documentation for this status.",
  );
  const given = alreadyAdvised(detail, advice) || (detail !== undefined && kind?.givenBy?.test(detail) === true);
  if (!given) parts.push(advice);
  if (requestId) parts.push(`(request id ${requestId})`);
  const init: APIErrorInit = {
    status: res.status,
    code: kind?.code ?? `http_${res.status}`,
    message: joinSentences(parts),
    title,
    detail,
    type: problem?.type,
    instance: problem?.instance,
    requestId,
    errors,
    body: res.body,
    headers: res.headers,
    call: res.call,
    // Advice mdps knows better than a caller's general hint is the remedy too (a tier conflict
    // met by a send gets no job hint; a 403 is not always a scope); none when the service gave it.
    remedy:
      isTierConflict(res.status, said) || (!given && (res.status === 403 || res.status === 413)) ? advice : undefined,
  };
  return new (kind?.ctor ?? APIError)(init);
}

/**
 * What a token endpoint's error code means, said unless the service's description already
 * says it (`givenBy`): a terse "invalid client" gets it, the reference service's words do not.
 */
const OAUTH_MEANING: Record<string, { text: string; givenBy: RegExp }> = {
  invalid_client: { text: "The client id or secret is wrong (or the secret was regenerated).", givenBy: /secret/i },
};

const OAUTH_ADVICE: Record<string, string> = {
  invalid_client: "Check MDPS_CLIENT_ID and MDPS_CLIENT_SECRET.",
  invalid_scope:
    "A requested scope is not assigned to the application: fix MDPS_SCOPES or add the scope in the portal.",
  invalid_request: "The token request is missing a field: set both the client id and the secret.",
  unsupported_grant_type: "The token endpoint does not accept client_credentials: check MDPS_AUTH_URL.",
};

/**
 * What to do about a token endpoint's error code (`invalid_client`...), led by what the
 * code means unless the service's `description` already says it.
 */
export function oauthAdvice(code: string, description?: string): string {
  const advice = OAUTH_ADVICE[code] ?? "Check the application's credentials and scopes in the portal.";
  const meaning = OAUTH_MEANING[code];
  if (meaning === undefined || (description !== undefined && meaning.givenBy.test(description))) return advice;
  return `${meaning.text} ${advice}`;
}

/** The token endpoint's RFC 6749 error -> OAuthError (never mentions the secret). */
export function makeOAuthError(res: ErrorResponse): APIError {
  const parsed = oauthError.safeParse(res.body);
  if (!parsed.success) return oauthErrorFromText(res);
  const { error, error_description } = parsed.data;
  const requestId = requestIdOf(res.headers);
  const failed = `Token request to ${res.call} failed with ${res.status} ${error}`;
  const parts = [error_description ? `${failed}: ${error_description}` : failed];
  const remedy = oauthAdvice(error, error_description);
  parts.push(remedy);
  if (requestId) parts.push(`(request id ${requestId})`);
  return new OAuthError({
    status: res.status,
    code: error,
    message: joinSentences(parts),
    title: error,
    detail: error_description,
    requestId,
    body: res.body,
    headers: res.headers,
    remedy,
  });
}

const OAUTH_CODE =
  /\b(invalid[_ ]client|invalid[_ ]scope|invalid[_ ]request|invalid[_ ]grant|unauthorized[_ ]client|unsupported[_ ]grant[_ ]type)\b/i;

/**
 * A token endpoint's refusal that is not RFC 6749 JSON (plain text, an HTML page,
 * nothing): still an OAuthError for 400/401/403, its code read from the text when it
 * names one (`invalid client` is invalid_client), else from the status (a 401 from a
 * token endpoint is invalid_client). Other statuses (a proxy's 502) are API errors.
 */
function oauthErrorFromText(res: ErrorResponse): APIError {
  if (res.status !== 400 && res.status !== 401 && res.status !== 403) return makeAPIError(res);
  const snippet = bodySnippet(res.body);
  const named = snippet === undefined ? undefined : OAUTH_CODE.exec(snippet)?.[1];
  const code = named
    ? named.toLowerCase().replace(/ /g, "_")
    : res.status === 401
      ? "invalid_client"
      : res.status === 403
        ? "unauthorized_client"
        : "invalid_request";
  const requestId = requestIdOf(res.headers);
  const parts = [`Token request to ${res.call} failed with ${res.status}`];
  const note = bodyKind(res);
  if (note) parts.push(note);
  if (snippet) parts.push(`"${snippet}"`);
  const remedy = oauthAdvice(code, snippet);
  parts.push(remedy);
  if (requestId) parts.push(`(request id ${requestId})`);
  return new OAuthError({
    status: res.status,
    code,
    message: joinSentences(parts),
    title: code,
    detail: snippet,
    requestId,
    body: res.body,
    headers: res.headers,
    remedy,
  });
}

export function formatFieldErrors(errors: FieldErrors): string {
  return Object.entries(errors)
    .map(([field, messages]) => `${field || "(body)"}: ${messages.map(withoutFinalPeriod).join("; ")}`)
    .join("; ");
}

/**
 * A message to be joined into a sentence that ends later: its own final period goes, so
 * scikit-learn's "... must be smaller than maximum." never reads "maximum..". or "maximum.;".
 */
export function withoutFinalPeriod(message: string): string {
  return message.replace(/(?<!\.)\.\s*$/, "").trimEnd();
}

/** The reference service's details already say what to do; the same advice twice reads badly. */
function alreadyAdvised(detail: string | undefined, advice: string): boolean {
  const lead = advice
    .split(/[;:,(]/)[0]!
    .trim()
    .toLowerCase();
  return detail !== undefined && detail.toLowerCase().includes(lead);
}

function joinSentences(parts: string[]): string {
  return (
    parts
      .map((p) => p.trim().replace(/[:;,]?$/, ""))
      // A closing parenthesis ends a sentence only after a full stop, or as a whole aside.
      .map((p) => (/[.!?]\)?$/.test(p) || /^\(.*\)$/.test(p) ? p : `${p}.`))
      .join(" ")
  );
}
