/**
 * Records as another service may write them, read into the contract's snake_case
 * shape. The interface leaves every response body "not shown", so a regional service
 * may say `blobId`, `BlobId` or `recordType`; these functions rename what they
 * recognise and keep every other field (in snake_case), never dropping one.
 */

/** `blobId`, `BlobId`, `blob-id` -> `blob_id`; snake_case stays as it is. */
export function snakeCase(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .replace(/[\s-]+/g, "_")
    .toLowerCase();
}

type Plain = Record<string, unknown>;

function isPlain(value: unknown): value is Plain {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The object's keys in snake_case, then `renames` applied (a field the record already
 * has under the target name wins). Anything that is not an object is returned as is,
 * for the schema to refuse.
 */
export function snakeRecord(value: unknown, renames: Readonly<Record<string, string>> = {}): unknown {
  if (!isPlain(value)) return value;
  const out: Plain = {};
  // Exact snake_case keys first, so `id` beats a `blobId` that would rename onto it.
  const entries = Object.entries(value).sort(([a], [b]) => Number(snakeCase(a) !== a) - Number(snakeCase(b) !== b));
  for (const [key, field] of entries) {
    const snake = snakeCase(key);
    for (const target of [snake, renames[snake]]) {
      if (target !== undefined && !(target in out)) out[target] = field;
    }
  }
  return out;
}

const BLOB_RENAMES: Readonly<Record<string, string>> = {
  blob_id: "id",
  created_on: "created_at",
  updated_on: "updated_at",
  modified_at: "updated_at",
  last_modified: "updated_at",
  size: "size_bytes",
  length: "size_bytes",
  content_length: "size_bytes",
  file_name: "name",
  type: "record_type",
  tier: "access_tier",
  e_tag: "etag",
};

/** A blob record in any casing -> the contract's field names (unknown fields kept). */
export function normalizeBlobRecord(value: unknown): unknown {
  const out = tolerantFields(snakeRecord(value, BLOB_RENAMES));
  if (!isPlain(out)) return out;
  if (typeof out.tags === "string") out.tags = out.tags.split(/[,;]\s*/).filter((t) => t !== "");
  if (out.tags === null) delete out.tags;
  if (typeof out.size_bytes === "string" && /^\d+$/.test(out.size_bytes)) out.size_bytes = Number(out.size_bytes);
  return out;
}

const JOB_RENAMES: Readonly<Record<string, string>> = {
  job_id: "id",
  state: "status",
  job_status: "status",
  created_on: "created_at",
  created_date_time: "created_at",
  started_on: "started_at",
  finished_on: "finished_at",
  completed_at: "finished_at",
  completed_on: "finished_at",
  ended_at: "finished_at",
  percent_complete: "progress",
};

/** A job record in any casing -> the contract's field names; an error given as text becomes `{title, detail}`. */
export function normalizeJobRecord(value: unknown): unknown {
  const out = tolerantFields(snakeRecord(value, JOB_RENAMES));
  if (!isPlain(out)) return out;
  out.error = normalizeJobError(out.error ?? out.error_message ?? out.failure_reason);
  if (typeof out.progress === "number" && out.progress > 1 && out.progress <= 100) out.progress = out.progress / 100;
  if (Array.isArray(out.events)) out.events = out.events.map((e) => tolerantFields(snakeRecord(e, JOB_RENAMES)));
  return out;
}

function normalizeJobError(error: unknown): unknown {
  if (error === undefined || error === null) return error;
  if (typeof error === "string") return { title: "Job failed", detail: error };
  const e = snakeRecord(error);
  if (!isPlain(e)) return error;
  const detail = e.detail ?? e.message ?? e.description ?? e.error_description;
  const title = e.title ?? e.code ?? e.error ?? "Job failed";
  return { ...e, title: asText(title), detail: detail === undefined ? "no detail given" : asText(detail) };
}

function asText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

const RESULT_RENAMES: Readonly<Record<string, string>> = {
  id: "job_id",
  state: "status",
  blob_ids: "output_blob_ids",
  output_ids: "output_blob_ids",
  urls: "download_urls",
  output_urls: "download_urls",
  output_download_urls: "download_urls",
  fitted_state: "fitted",
  row_count: "rows",
};

/**
 * A job result in any casing -> the contract's names. `outputs` given as ids or URLs
 * (rather than blob records) moves to `output_blob_ids` / `download_urls`.
 */
export function normalizeJobResult(value: unknown): unknown {
  const out = tolerantFields(snakeRecord(value, RESULT_RENAMES));
  // A fitted state in a service's own shape (no `type`) is kept for the session's reader,
  // out of the way of the contract's schema.
  if (isPlain(out) && out.fitted !== undefined && !(isPlain(out.fitted) && "type" in out.fitted)) {
    out.fitted_parameters ??= out.fitted;
    delete out.fitted;
  }
  if (!isPlain(out) || !Array.isArray(out.outputs)) return out;
  const outputs: unknown[] = out.outputs;
  const strings = outputs.filter((o): o is string => typeof o === "string");
  if (strings.length === outputs.length) {
    const urls = strings.filter((s) => /^https?:\/\//i.test(s));
    if (urls.length > 0) out.download_urls ??= urls;
    const ids = strings.filter((s) => !/^https?:\/\//i.test(s));
    if (ids.length > 0) out.output_blob_ids ??= ids;
    delete out.outputs;
  } else {
    out.outputs = outputs.map(normalizeBlobRecord);
  }
  return out;
}

const LEVELS: Readonly<Record<string, string>> = {
  information: "info",
  informational: "info",
  notice: "info",
  warn: "warning",
  trace: "debug",
  verbose: "debug",
  critical: "error",
  fatal: "error",
  err: "error",
};

/**
 * Job logs in any shape -> `{messages, ...}`: a bare array of messages, or an object
 * with `messages`, `logs`, `entries` or `items`. A message's fields may sit in a nested
 * `details` object; the level is one of debug, info, warning, error when recognised.
 */
export function normalizeLogDetails(value: unknown): unknown {
  const body: unknown = Array.isArray(value) ? { messages: value } : snakeRecord(value, { job_status: "status" });
  if (!isPlain(body)) return body;
  const list = body.messages ?? body.logs ?? body.entries ?? body.items ?? body.lines;
  if (Array.isArray(list)) body.messages = list.map(normalizeLogMessage);
  return body;
}

function normalizeLogMessage(value: unknown): unknown {
  if (typeof value === "string") return { message: value, level: "info" };
  if (!isPlain(value)) return value;
  const details = isPlain(value.details) ? value.details : isPlain(value.Details) ? value.Details : {};
  const flat: Plain = {};
  for (const [key, field] of [...Object.entries(details), ...Object.entries(value)]) {
    if (key === "details" || key === "Details") continue;
    // The container keeps the interface's camelCase names (hostname, replicaName, processId).
    const name = key === "Container" ? "container" : /^[A-Z]/.test(key) ? snakeCase(key) : key;
    flat[name] ??= field;
  }
  flat.message ??= flat.msg ?? flat.text ?? "";
  flat.timestamp = isoTime(flat.timestamp ?? flat.time ?? flat.date ?? flat.created_at ?? flat.createdAt);
  const level = typeof flat.level === "string" ? flat.level.toLowerCase() : "info";
  flat.level = LEVELS[level] ?? level;
  return flat;
}

/** Health words that mean mdps's `healthy` / `unhealthy` (Spring Actuator says `UP` and `DOWN`). */
const HEALTH_WORDS: Readonly<Record<string, string>> = {
  up: "healthy",
  ok: "healthy",
  pass: "healthy",
  down: "unhealthy",
  fail: "unhealthy",
  out_of_service: "unhealthy",
  warn: "degraded",
};

/** Health in any casing: `status` lower-cased (`Healthy` -> `healthy`), other services' words by meaning (`UP`). */
export function normalizeHealth(value: unknown): unknown {
  const out = snakeRecord(value);
  if (isPlain(out) && typeof out.status === "string") {
    const word = out.status.toLowerCase();
    out.status = HEALTH_WORDS[word] ?? word;
  }
  return out;
}

/** Fields that carry ids: a service may write them as numbers (a database sequence). */
const ID_FIELDS = ["id", "model_id", "job_id", "blob_id", "input_blob_id"];

/**
 * Fields mdps reads whose type a service may choose otherwise, read by meaning: times as
 * epoch seconds or milliseconds (Jackson's default) or a `[y, m, d, h, min, s]` array
 * become RFC 3339 text; ids as numbers become text.
 */
function tolerantFields(value: unknown): unknown {
  if (!isPlain(value)) return value;
  for (const [key, field] of Object.entries(value)) {
    if (key.endsWith("_at") || key === "timestamp") value[key] = isoTime(field);
    else if (ID_FIELDS.includes(key) && typeof field === "number") value[key] = String(field);
  }
  if (Array.isArray(value.output_blob_ids)) value.output_blob_ids = value.output_blob_ids.map(idText);
  return value;
}

function idText(value: unknown): unknown {
  return typeof value === "number" ? String(value) : value;
}

/** Epoch numbers below this are seconds, above it milliseconds (1e11 s is the year 5138). */
const EPOCH_SECONDS_BELOW = 1e11;

/**
 * A time as RFC 3339 text: ISO text stays as it is; epoch seconds or milliseconds (number or
 * digits) and Jackson's `[2026, 12, 7, 3, 4, 5, nanos]` array are converted (UTC); anything
 * else is returned as is, for the schema to judge.
 *
 * @example
 * isoTime(1796611134749); // "2026-12-07T02:38:54.749Z"
 */
export function isoTime(value: unknown): unknown {
  if (typeof value === "string" && /^\d{9,}(\.\d+)?$/.test(value)) return isoTime(Number(value));
  if (typeof value === "number" && Number.isFinite(value) && value > 0) {
    return new Date(value < EPOCH_SECONDS_BELOW ? value * 1000 : value).toISOString();
  }
  if (isDateArray(value)) {
    const [y = 1970, mo = 1, d = 1, h = 0, mi = 0, s = 0, nanos = 0] = value;
    return new Date(Date.UTC(y, mo - 1, d, h, mi, s, Math.floor(nanos / 1e6))).toISOString();
  }
  return value;
}

function isDateArray(value: unknown): value is number[] {
  return Array.isArray(value) && value.length >= 3 && value.length <= 7 && value.every((n) => Number.isInteger(n));
}
