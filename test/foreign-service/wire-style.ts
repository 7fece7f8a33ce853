/**
 * The wire choices a Java / Spring Boot vendor makes where the interface says "not shown":
 * form part names, times as Jackson writes them, Spring's error body, parameter spelling.
 * Each follows a switch (./switches.ts); the baseline keeps the interface's choices.
 */
import type { HttpError } from "./errors.js";
import type { Settings } from "./switches.js";

/** The blob form's fields in the order a controller declares (and Spring checks) them. */
export const FORM_FIELDS = ["file", "name", "recordType", "accessTier", "description", "tags"] as const;
export type FormField = (typeof FORM_FIELDS)[number];
export const REQUIRED_FORM_FIELDS: readonly FormField[] = ["file", "name", "recordType", "accessTier"];

const INTERFACE_PARTS: Readonly<Record<FormField, string>> = {
  file: "File",
  name: "Name",
  recordType: "RecordType",
  accessTier: "AccessTier",
  description: "Description",
  tags: "Tags",
};

/** The part name of a field on this service's wire. */
export function partName(field: FormField, settings: Settings): string {
  return settings.formParts === "camel" ? field : INTERFACE_PARTS[field];
}

/** A time as this service writes it: ISO text, or epoch milliseconds. */
export function wireTime(iso: string, settings: Settings): string | number {
  return settings.times === "epoch-millis" ? Date.parse(iso) : iso;
}

/** Spring Boot's default error body (`server.error.include-message=always`). */
export function springError(error: HttpError, path: string): Record<string, unknown> {
  return {
    timestamp: new Date().toISOString(),
    status: error.status,
    error: REASONS[error.status] ?? "Error",
    message: error.message,
    path,
  };
}

const REASONS: Readonly<Record<number, string>> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  412: "Precondition Failed",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

/** scikit-learn's parameter names of the transforms this service runs. */
const PARAMS: Readonly<Record<string, readonly string[]>> = {
  StandardScaler: ["with_mean", "with_std", "copy"],
  MinMaxScaler: ["feature_range", "copy", "clip"],
  RobustScaler: ["with_centering", "with_scaling", "quantile_range", "copy", "unit_variance"],
  MaxAbsScaler: ["copy"],
};

export function camelCase(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

export function snakeCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}

/**
 * The parameters as the transforms read them (snake_case). Under `camelCase` every key must
 * be one of the type's names in camelCase: anything else throws `refuse` with the allowed list.
 */
export function paramsOfWire(
  type: string,
  params: Readonly<Record<string, unknown>>,
  settings: Settings,
  refuse: (message: string) => Error,
): Record<string, unknown> {
  if (settings.paramSpelling !== "camelCase") return { ...params };
  const allowed = (PARAMS[type] ?? []).map(camelCase);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) {
    if (!allowed.includes(key)) {
      throw refuse(
        `preprocessingParams: unknown parameter '${key}' for ${type}; allowed: ${allowed.join(", ") || "(none)"}`,
      );
    }
    out[snakeCase(key)] = value;
  }
  return out;
}
