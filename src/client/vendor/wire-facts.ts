/**
 * The wire facts of the service profile that are settings (./service-settings.ts) or read by
 * meaning, in one list: what each is, its profile key, its default and how mdps finds it.
 * `describe()` shows them with where each value came from; docs/vendors.md is this list.
 */
import { BLOB_FORM_PART_NAMES } from "../../core/contract/blob.js";
import { RECORD_TYPES } from "../../core/formats/registry.js";
import { DEFAULT_JOB_VISIBLE_GRACE_MS } from "../job-visibility.js";
import type { ServiceSettings } from "./service-settings.js";

export interface WireFact {
  readonly fact: string;
  /** The profile key; undefined for a fact read by meaning (no setting needed). */
  readonly key: string | undefined;
  readonly default: string;
  readonly learned: string;
  /** The value in `settings`, as text; undefined where it is the default. */
  readonly value: (settings: ServiceSettings) => string | undefined;
}

const pairs = (map: Readonly<Record<string, string>> | undefined): string | undefined => {
  const entries = Object.entries(map ?? {});
  return entries.length === 0 ? undefined : entries.map(([ours, theirs]) => `${ours} -> ${theirs}`).join(", ");
};

export const WIRE_FACTS: readonly WireFact[] = [
  {
    fact: "blob form part names",
    key: "form_parts",
    default: `${BLOB_FORM_PART_NAMES.join(", ")} (the interface's)`,
    learned: "OpenAPI: the upload's multipart schema; else the part a Spring/ASP.NET 400 names as missing",
    value: (s) => pairs(s.formParts),
  },
  {
    fact: "parameter spelling",
    key: "param_spelling",
    default: "snake_case (scikit-learn's)",
    learned: "OpenAPI: the property names of the parameters' schemas; else the allowed names a 400 lists",
    value: (s) => s.paramSpelling,
  },
  {
    fact: "record type words",
    key: "record_types",
    default: RECORD_TYPES.join(", "),
    learned: "OpenAPI: the enum of RecordType; else the allowed values a 400 lists",
    value: (s) => pairs(s.recordTypes),
  },
  {
    fact: "access tier words",
    key: "access_tiers",
    default: "hot, cool, cold, archive",
    learned: "OpenAPI: the enum of AccessTier; else the allowed values a 400 lists",
    value: (s) => pairs(s.accessTiers),
  },
  {
    fact: "job type words",
    key: "job_types",
    default: "preprocessing",
    learned: "OpenAPI: the enum of job_type / jobType",
    value: (s) => pairs(s.jobTypes),
  },
  {
    fact: "grace for a just-sent job's 404",
    key: "job_visible_grace_ms",
    default: `${DEFAULT_JOB_VISIBLE_GRACE_MS} ms`,
    learned: "a setting (a 404 after the grace says so and names it)",
    value: (s) => (s.jobVisibleGraceMs === undefined ? undefined : `${s.jobVisibleGraceMs} ms`),
  },
  {
    fact: "uploads and numbered sends answered 503 + Retry-After",
    key: "retry_refused_writes",
    default: "sent again after Retry-After (the service did not take them)",
    learned: "a setting",
    value: (s) => (s.retryRefusedWrites === false ? "never sent again" : undefined),
  },
  {
    fact: "job status and health words",
    key: undefined,
    default: "read by meaning, any case (Completed, SUCCEEDED, UP ...)",
    learned: "no setting needed; Session options statusAliases / terminalStatuses for new words",
    value: () => undefined,
  },
  {
    fact: "times and ids",
    key: undefined,
    default: "ISO text, epoch seconds or milliseconds, [y, m, d, ...]; ids as text or numbers",
    learned: "no setting needed",
    value: () => undefined,
  },
  {
    fact: "output encodings",
    key: undefined,
    default: "gzip read by its magic bytes (1f 8b), Content-Type or .gz name; formats sniffed",
    learned: "no setting needed",
    value: () => undefined,
  },
];

/** Where a fact's value came from. */
export type FactSource = "the default" | "read by meaning" | "your settings" | `learned from ${string}`;

/** Each fact with its value and where it came from: learned (and how), your settings, or the default. */
export function describeFacts(
  settings: ServiceSettings,
): Array<{ assumption: string; value: string; from: FactSource }> {
  return WIRE_FACTS.map((fact) => {
    const value = fact.value(settings);
    const learned = fact.key === undefined ? undefined : settings.learnedFrom?.[fact.key];
    const from: FactSource =
      value === undefined
        ? fact.key === undefined
          ? "read by meaning"
          : "the default"
        : learned !== undefined
          ? `learned from ${learned}`
          : "your settings";
    return { assumption: fact.fact, value: value ?? fact.default, from };
  });
}
