/**
 * The switches of the foreign service and their defaults (the "baseline variant").
 * Every default is a choice of this fake where the interface says "not shown";
 * a test picks the switches it needs and leaves the rest at the baseline.
 */

/** The request line the fault switches and `requests()` see: method and path without the query. */
export interface RequestLine {
  readonly method: string;
  readonly path: string;
}

/** A string is a regular expression source tested against the path; a function sees method and path. */
export type RequestMatcher = string | RegExp | ((request: RequestLine) => boolean);

/** The words a job's `status` carries on the wire, one per internal state. */
export interface StatusWords {
  readonly queued: string;
  readonly running: string;
  readonly succeeded: string;
  readonly failed: string;
  readonly canceled: string;
  /** When set, a job passes through this extra status between running and succeeded. */
  readonly finalizing: string | undefined;
}

export interface RetryAfterSwitch {
  /** `seconds`: `Retry-After: 1`; `date`: an HTTP-date that many seconds ahead. */
  readonly kind: "seconds" | "date";
  readonly status: 429 | 503;
  /** How many matching requests are refused before the service answers normally. */
  readonly times: number;
  /** Which requests are refused; every request when absent. */
  readonly path?: RequestMatcher;
  /** The delay announced; 1 when absent. */
  readonly seconds?: number;
}

export interface ForeignServiceOptions {
  /** Time from send to a terminal status, in milliseconds; 100 when absent. */
  readonly jobDelayMs?: number;
  /** Override some or all status words; `finalizing` adds a status before success. */
  readonly statusWords?: Partial<StatusWords>;
  /** `blob-ids` (default): `outputBlobIds`; `download-urls`: absolute signed `downloadUrls`. */
  readonly resultShape?: "blob-ids" | "download-urls";
  /** Body of the token endpoint's errors: `plain-text` (default) or an `html` page. */
  readonly tokenErrors?: "plain-text" | "html";
  /** Answer an HTML 502 page, as a reverse proxy would, to the first `times` matching requests. */
  readonly proxyHtml502?: { readonly path: RequestMatcher; readonly times: number };
  /** Answer 502 with an empty body to the first N requests matching `emptyBody502Path` (all by default). */
  readonly emptyBody502Times?: number;
  readonly emptyBody502Path?: RequestMatcher;
  /** Refuse the first N matching requests with 429 or 503 and a `Retry-After` header. */
  readonly retryAfter?: RetryAfterSwitch;
  /** Status of a successful send: 200 (default) or 202 with a `Location` header naming the job. */
  readonly sendStatus?: 200 | 202;
  /**
   * `shared` (default): both job families read every job. `separate`: a job is found only
   * under the family it was sent to (the other answers 404 "not found").
   */
  readonly jobFamilies?: "shared" | "separate";
  /**
   * With `sendStatus: 202`, the `Location` names `{locationReadBase}/{id}/get`, and get,
   * logs and result of every job are served there too (e.g. `/api/v2/jobs`).
   */
  readonly locationReadBase?: string;
  /**
   * Blob versions: `none` (default) ignores If-Match; `header` answers upload, update and
   * download with an `ETag` header only; `field` puts it in the record as `ETag` too. Both
   * refuse an update whose If-Match is not the current version with 412.
   */
  readonly etags?: "none" | "header" | "field";
  /**
   * An outage: from the first request matching `after` on, for `ms` milliseconds, every
   * request's connection is dropped unanswered (the client sees a reset), as when the
   * service restarts or a gateway loses it.
   */
  readonly outage?: { readonly after: RequestMatcher; readonly ms: number };
  /**
   * Error bodies: `message` (default) a plain `{ message }`; `aspnet` ASP.NET's shapes:
   * a 400 is ValidationProblemDetails (a title, no detail, `errors` keyed by the field the
   * message starts with), others ProblemDetails, each with a `traceId` and no request id header;
   * `spring` Spring Boot's `{ timestamp, status, error, message, path }`.
   */
  readonly errorBodies?: "message" | "aspnet" | "spring";
  /**
   * `pascal`: a succeeded job's result carries `FittedParameters` with scikit-learn's
   * attribute names in PascalCase (`Mean`, `Var`, `Scale`, `DataMin`...), arrays per
   * feature column in `FeatureNamesIn` order, and `NSamplesSeen`. Absent by default.
   */
  readonly fittedParameters?: "pascal";
  /**
   * With `fittedParameters`: `always` (default) puts them in every result; `on-request` only
   * in a result read with `?includeFittedParameters=true` (what its API reference says).
   */
  readonly fittedParametersWhen?: "always" | "on-request";
  /**
   * When true, an `Archive`-tier blob is not read, as a cloud store refuses an archived
   * blob until it is rehydrated: its download answers 409, and so does a job send naming it
   * as input. False by default.
   */
  readonly archiveRefusesReads?: boolean;
  /** Whether `POST /api/job/send` exists; true by default, false makes it 404. */
  readonly genericJobSend?: boolean;
  /** Whether the preprocessing endpoints need the `ml.preprocessing.*` scopes in the token; true by default. */
  readonly requirePreprocessingScopes?: boolean;
  /** Allowed RecordType / record_type words, case-sensitive; `["Csv"]` by default. The first stands for CSV, the only format jobs read and write. */
  readonly recordTypes?: readonly string[];
  /** Allowed AccessTier / access_tier words, case-sensitive; `["Hot", "Cool", "Archive"]` by default. */
  readonly accessTiers?: readonly string[];
  /** When true a repeated job id (generic `job_id`, or preprocessing `job_id` / `Idempotency-Key`) returns the first job. */
  readonly idempotentSend?: boolean;
  /** The first send creates its job and then answers an HTML 502, as if the gateway lost the reply. */
  readonly failFirstSendWith502AfterCreating?: boolean;
  /** `expires_in` of issued tokens; 3600 by default. */
  readonly tokenLifetimeSeconds?: number;
  /** The scopes assigned to the one application; all eight by default. */
  readonly assignedScopes?: readonly string[];
  /** Whether the token endpoint's `invalid scope` text names the scopes it refused; true by default. */
  readonly invalidScopeNamesScopes?: boolean;
  /** Path prefix of the model API (a servlet context path), e.g. `/mdps`: base_url ends with it. None by default. */
  readonly contextPath?: string;
  /** `separate`: the token endpoint listens on an origin of its own (`authUrl`); `same` by default. */
  readonly authOrigin?: "same" | "separate";
  /**
   * Blob form part names, case-sensitive: `interface` (default: File, Name, RecordType, ...) or
   * `camel` (file, name, recordType, ...), with a missing required part named Spring's way and
   * required parts checked before anything else (so a form without one stores nothing).
   */
  readonly formParts?: "interface" | "camel";
  /** `preprocessing_params` keys: `snake_case` (default, unchecked) or `camelCase` (others: 400 listing the allowed). */
  readonly paramSpelling?: "snake_case" | "camelCase";
  /** The generic send's job_type words; `["Preprocessing"]` by default. */
  readonly jobTypes?: readonly string[];
  /** Times in records and logs: `iso` (default) or `epoch-millis` (Jackson's default for an Instant as a number). */
  readonly times?: "iso" | "epoch-millis";
  /** Job outputs stored gzip-compressed, named `….csv.gz`, downloaded as `application/gzip`. */
  readonly gzipOutputs?: boolean;
  /** For this long after its send a job's reads answer 404 (it is still on a queue); 0 by default. */
  readonly notVisibleAfterSendMs?: number;
  /** Health's status word; `Healthy` by default (`UP` for Spring Actuator). */
  readonly healthStatus?: string;
  /** Publish an OpenAPI 3 document, springdoc's shape, at `{contextPath}/v3/api-docs`. False by default. */
  readonly openApi?: boolean;
  /** Also run RobustScaler and MaxAbsScaler (four transforms in all); false by default. */
  readonly fourTransforms?: boolean;
  /** The largest file an upload takes, bytes (413 past it); 64 MiB by default. */
  readonly maxUploadBytes?: number;
  /** Fixed credentials and model id; random when absent. */
  readonly clientId?: string;
  readonly clientSecret?: string;
  readonly modelId?: string;
}

export const ALL_SCOPES = [
  "shared.blob.delete",
  "shared.blob.download",
  "shared.blob.read",
  "shared.blob.upload",
  "shared.blob.write",
  "shared.health.read",
  "ml.preprocessing.execute",
  "ml.preprocessing.read",
] as const;

export const BASELINE_STATUS_WORDS: StatusWords = {
  queued: "NotStarted",
  running: "Running",
  succeeded: "Succeeded",
  failed: "Failed",
  canceled: "Canceled",
  finalizing: undefined,
};

/** Options with every default filled in; what the rest of the fake reads. */
export interface Settings {
  readonly jobDelayMs: number;
  readonly statusWords: StatusWords;
  readonly resultShape: "blob-ids" | "download-urls";
  readonly tokenErrors: "plain-text" | "html";
  readonly proxyHtml502: { readonly path: RequestMatcher; readonly times: number } | undefined;
  readonly emptyBody502: { readonly path: RequestMatcher; readonly times: number } | undefined;
  readonly retryAfter: RetryAfterSwitch | undefined;
  readonly sendStatus: 200 | 202;
  readonly jobFamilies: "shared" | "separate";
  readonly etags: "none" | "header" | "field";
  readonly errorBodies: "message" | "aspnet" | "spring";
  readonly fittedParameters: "pascal" | undefined;
  readonly fittedParametersWhen: "always" | "on-request";
  readonly outage: { readonly after: RequestMatcher; readonly ms: number } | undefined;
  readonly locationReadBase: string | undefined;
  readonly archiveRefusesReads: boolean;
  readonly genericJobSend: boolean;
  readonly requirePreprocessingScopes: boolean;
  readonly recordTypes: readonly string[];
  readonly accessTiers: readonly string[];
  readonly idempotentSend: boolean;
  readonly failFirstSendWith502AfterCreating: boolean;
  readonly tokenLifetimeSeconds: number;
  readonly assignedScopes: readonly string[];
  readonly invalidScopeNamesScopes: boolean;
  readonly contextPath: string;
  readonly authOrigin: "same" | "separate";
  readonly formParts: "interface" | "camel";
  readonly paramSpelling: "snake_case" | "camelCase";
  readonly jobTypes: readonly string[];
  readonly times: "iso" | "epoch-millis";
  readonly gzipOutputs: boolean;
  readonly notVisibleAfterSendMs: number;
  readonly healthStatus: string;
  readonly openApi: boolean;
  readonly fourTransforms: boolean;
  readonly maxUploadBytes: number;
}

export function resolveSettings(options: ForeignServiceOptions): Settings {
  const emptyTimes = options.emptyBody502Times ?? 0;
  return {
    jobDelayMs: options.jobDelayMs ?? 100,
    statusWords: { ...BASELINE_STATUS_WORDS, ...options.statusWords },
    resultShape: options.resultShape ?? "blob-ids",
    tokenErrors: options.tokenErrors ?? "plain-text",
    proxyHtml502: options.proxyHtml502,
    emptyBody502: emptyTimes > 0 ? { path: options.emptyBody502Path ?? /.*/, times: emptyTimes } : undefined,
    retryAfter: options.retryAfter,
    sendStatus: options.sendStatus ?? 200,
    jobFamilies: options.jobFamilies ?? "shared",
    etags: options.etags ?? "none",
    errorBodies: options.errorBodies ?? "message",
    fittedParameters: options.fittedParameters,
    fittedParametersWhen: options.fittedParametersWhen ?? "always",
    outage: options.outage,
    locationReadBase: options.locationReadBase,
    archiveRefusesReads: options.archiveRefusesReads ?? false,
    genericJobSend: options.genericJobSend ?? true,
    requirePreprocessingScopes: options.requirePreprocessingScopes ?? true,
    recordTypes: options.recordTypes ?? ["Csv"],
    accessTiers: options.accessTiers ?? ["Hot", "Cool", "Archive"],
    idempotentSend: options.idempotentSend ?? false,
    failFirstSendWith502AfterCreating: options.failFirstSendWith502AfterCreating ?? false,
    tokenLifetimeSeconds: options.tokenLifetimeSeconds ?? 3600,
    assignedScopes: options.assignedScopes ?? ALL_SCOPES,
    invalidScopeNamesScopes: options.invalidScopeNamesScopes ?? true,
    contextPath: (options.contextPath ?? "").replace(/\/+$/, ""),
    authOrigin: options.authOrigin ?? "same",
    formParts: options.formParts ?? "interface",
    paramSpelling: options.paramSpelling ?? "snake_case",
    jobTypes: options.jobTypes ?? ["Preprocessing"],
    times: options.times ?? "iso",
    gzipOutputs: options.gzipOutputs ?? false,
    notVisibleAfterSendMs: options.notVisibleAfterSendMs ?? 0,
    healthStatus: options.healthStatus ?? "Healthy",
    openApi: options.openApi ?? false,
    fourTransforms: options.fourTransforms ?? false,
    maxUploadBytes: options.maxUploadBytes ?? 64 * 1024 * 1024,
  };
}

export function matchesRequest(matcher: RequestMatcher, request: RequestLine): boolean {
  if (typeof matcher === "function") return matcher(request);
  const pattern = typeof matcher === "string" ? new RegExp(matcher) : matcher;
  pattern.lastIndex = 0; // a /g or /y pattern would otherwise carry its position from the last request
  return pattern.test(request.path);
}
