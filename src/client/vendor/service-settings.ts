/**
 * The service profile's settings: every wire fact the interface leaves open that mdps
 * cannot read by meaning, as Session options (camelCase) or keys of a config profile
 * (snake_case). `mdps configure` learns them (./service-learning.ts) and saves them with
 * `learned_from`; the Session resolves them with health's capabilities into its service
 * profile (src/client/vendor/service-profile.ts). docs/vendors.md lists each fact.
 */
import { z } from "zod";
import {
  ACCESS_TIERS,
  BLOB_FORM_PARTS,
  RECORD_TYPES,
  type AccessTier,
  type RecordType,
} from "../../core/contract/blob.js";

/** The blob form's fields, by mdps's name; the interface spells the parts `File`, `Name`, ... */
export type FormField = keyof typeof BLOB_FORM_PARTS;
export const FORM_FIELDS = Object.keys(BLOB_FORM_PARTS) as [FormField, ...FormField[]];

/** How a service spells `preprocessing_params` keys: scikit-learn's snake_case (default) or camelCase. */
export const PARAM_SPELLINGS = ["snake_case", "camelCase"] as const;
export type ParamSpelling = (typeof PARAM_SPELLINGS)[number];

export interface ServiceSettings {
  /**
   * Extensions to rely on although health does not declare them (or cannot be read):
   * e.g. `["envelope-v1"]` for a service known to read mdps's encryption envelope.
   * Profile key `capabilities`.
   */
  readonly capabilities?: readonly string[] | undefined;
  /**
   * The service's word for each record type, e.g. `{ csv: "Csv" }`: sent in uploads and
   * job outputs, and read back from its records. Profile key `record_types`.
   */
  readonly recordTypes?: Readonly<Partial<Record<RecordType, string>>> | undefined;
  /** The service's word for each access tier, e.g. `{ hot: "Hot" }`. Profile key `access_tiers`. */
  readonly accessTiers?: Readonly<Partial<Record<AccessTier, string>>> | undefined;
  /**
   * How DataFrames travel: default `arrow` where the service declares it, else `csv`
   * (the one format every service reads). Profile key `wire_format`.
   */
  readonly wireFormat?: RecordType | undefined;
  /**
   * A service's names of fitted attributes -> scikit-learn's, for names mdps does not
   * recognise by meaning, e.g. `{ Avg: "mean_" }`. Profile key `fitted_names`.
   */
  readonly fittedNames?: Readonly<Record<string, string>> | undefined;
  /**
   * Query parameters that ask for the fitted state in a job's result, for a service that
   * returns it only on request, e.g. `{ includeFittedParameters: "true" }`: added to the
   * result read. Profile key `fitted_query`.
   */
  readonly fittedQuery?: Readonly<Record<string, string>> | undefined;
  /**
   * The service's name of each blob form part where it is not the interface's, e.g.
   * `{ file: "file", recordType: "recordType" }` (names are case-sensitive on some
   * services). Profile key `form_parts`.
   */
  readonly formParts?: Readonly<Partial<Record<FormField, string>>> | undefined;
  /** How preprocessing parameter names are sent: `snake_case` (default) or `camelCase`. Profile key `param_spelling`. */
  readonly paramSpelling?: ParamSpelling | undefined;
  /** The service's word for each job type, e.g. `{ preprocessing: "PREPROCESSING" }`. Profile key `job_types`. */
  readonly jobTypes?: Readonly<Record<string, string>> | undefined;
  /**
   * How long after a send a job's 404 means "not visible yet" (a service with a queue
   * behind its sends), ms; default 8000, 0 for none. Profile key `job_visible_grace_ms`.
   */
  readonly jobVisibleGraceMs?: number | undefined;
  /**
   * Whether an upload or a service-numbered send answered 503 with `Retry-After` is sent
   * again (the service says it did not take it); default true. Profile key `retry_refused_writes`.
   */
  readonly retryRefusedWrites?: boolean | undefined;
  /** Where each setting above was learned, by profile key, e.g. `{ form_parts: "OpenAPI /v3/api-docs" }`. Profile key `learned_from`. */
  readonly learnedFrom?: Readonly<Record<string, string>> | undefined;
}

const word = z.string().min(1);

/** The profile keys, checked when the config file is read. */
export const serviceSettingsKeys = {
  capabilities: z.array(z.string()).optional(),
  record_types: z.partialRecord(z.enum(RECORD_TYPES), word).optional(),
  access_tiers: z.partialRecord(z.enum(ACCESS_TIERS), word).optional(),
  wire_format: z.enum(RECORD_TYPES).optional(),
  fitted_names: z.record(z.string(), word).optional(),
  fitted_query: z.record(z.string().min(1), z.string()).optional(),
  form_parts: z.partialRecord(z.enum(FORM_FIELDS), word).optional(),
  param_spelling: z.enum(PARAM_SPELLINGS).optional(),
  job_types: z.record(z.string().min(1), word).optional(),
  job_visible_grace_ms: z.number().int().min(0).max(600_000).optional(),
  retry_refused_writes: z.boolean().optional(),
  learned_from: z.record(z.string(), z.string()).optional(),
};

type ProfileKeys = { [K in keyof typeof serviceSettingsKeys]?: z.infer<(typeof serviceSettingsKeys)[K]> };

export function serviceSettingsOfProfile(profile: ProfileKeys | undefined): ServiceSettings {
  if (profile === undefined) return {};
  return {
    capabilities: profile.capabilities,
    recordTypes: profile.record_types,
    accessTiers: profile.access_tiers,
    wireFormat: profile.wire_format,
    fittedNames: profile.fitted_names,
    fittedQuery: profile.fitted_query,
    formParts: profile.form_parts,
    paramSpelling: profile.param_spelling,
    jobTypes: profile.job_types,
    jobVisibleGraceMs: profile.job_visible_grace_ms,
    retryRefusedWrites: profile.retry_refused_writes,
    learnedFrom: profile.learned_from,
  };
}

/** The environment variables of the word maps: `csv=Csv,json=Json` (or a JSON object). */
export const WORD_ENV = { recordTypes: "MDPS_RECORD_TYPES", accessTiers: "MDPS_ACCESS_TIERS" } as const;

/**
 * The word maps the environment gives (MDPS_RECORD_TYPES, MDPS_ACCESS_TIERS); a value that
 * cannot be read adds a problem naming the variable and the words mdps knows.
 */
export function serviceSettingsOfEnv(
  env: Readonly<Record<string, string | undefined>>,
  problems: string[],
): ServiceSettings {
  const read = <K extends string>(name: string, known: readonly K[]) => {
    const text = env[name]?.trim();
    return text ? parseWordMap({ text, known, name, problems }) : undefined;
  };
  return {
    recordTypes: read(WORD_ENV.recordTypes, RECORD_TYPES),
    accessTiers: read(WORD_ENV.accessTiers, ACCESS_TIERS),
  };
}

/**
 * A word map as a person writes it: `csv=Csv,json=Json` (commas, semicolons or spaces
 * between pairs) or a JSON object. Each pair that is not `<word>=<service's word>` with a
 * word of `known` adds a problem naming `name` (a variable, flag or question).
 */
export function parseWordMap<K extends string>(input: {
  readonly text: string;
  readonly known: readonly K[];
  readonly name: string;
  readonly problems: string[];
}): Partial<Record<K, string>> | undefined {
  const { text, known, name, problems } = input;
  let pairs: [string, unknown][];
  if (text.startsWith("{")) {
    try {
      pairs = Object.entries(JSON.parse(text) as Record<string, unknown>);
    } catch {
      problems.push(`${name} is not JSON: write it as csv=Csv,json=Json`);
      return undefined;
    }
  } else {
    pairs = text
      .split(/[,;\s]+/)
      .filter((p) => p !== "")
      .map((p) => {
        const at = p.indexOf("=");
        return at < 0 ? [p, undefined] : [p.slice(0, at), p.slice(at + 1)];
      });
  }
  const out: Partial<Record<K, string>> = {};
  for (const [key, value] of pairs) {
    const ours = key.trim().toLowerCase();
    if (!(known as readonly string[]).includes(ours) || typeof value !== "string" || value.trim() === "") {
      problems.push(
        `${name}: "${key}${value === undefined ? "" : `=${typeof value === "string" ? value : JSON.stringify(value)}`}" is not <word>=<service's word> with <word> one of ${known.join(", ")}`,
      );
      continue;
    }
    out[ours as K] = value.trim();
  }
  return out;
}

/** A word map as `parseWordMap` reads it back: `csv=Csv,json=Json`; undefined for none. */
export function wordMapText(map: Readonly<Record<string, string>> | undefined): string | undefined {
  const pairs = Object.entries(map ?? {});
  return pairs.length === 0 ? undefined : pairs.map(([ours, theirs]) => `${ours}=${theirs}`).join(",");
}

/** Options win over the profile, key by key (a map from options replaces the profile's). */
export function mergeServiceSettings(options: ServiceSettings, profile: ServiceSettings): ServiceSettings {
  return {
    capabilities: options.capabilities ?? profile.capabilities,
    recordTypes: options.recordTypes ?? profile.recordTypes,
    accessTiers: options.accessTiers ?? profile.accessTiers,
    wireFormat: options.wireFormat ?? profile.wireFormat,
    fittedNames: options.fittedNames ?? profile.fittedNames,
    fittedQuery: options.fittedQuery ?? profile.fittedQuery,
    formParts: options.formParts ?? profile.formParts,
    paramSpelling: options.paramSpelling ?? profile.paramSpelling,
    jobTypes: options.jobTypes ?? profile.jobTypes,
    jobVisibleGraceMs: options.jobVisibleGraceMs ?? profile.jobVisibleGraceMs,
    retryRefusedWrites: options.retryRefusedWrites ?? profile.retryRefusedWrites,
    learnedFrom: { ...profile.learnedFrom, ...options.learnedFrom },
  };
}
