/**
 * What learning found out about a service (./service-learning.ts): profile keys and values,
 * where each was learned, and notes for what could not be. Shared by the OpenAPI reader and
 * the probes, and merged field by field (the first source to learn a key keeps it).
 */
import {
  ACCESS_TIERS,
  BLOB_FORM_PARTS,
  RECORD_TYPES,
  type AccessTier,
  type RecordType,
} from "../../core/contract/blob.js";
import { snakeCase } from "../../core/contract/normalize.js";
import { paramNames } from "../../core/contract/param-issues.js";
import { PREPROCESSING_TYPES } from "../../core/contract/transform-types.js";
import { FORM_FIELDS, type FormField, type ParamSpelling } from "./service-settings.js";

/** The profile keys learning may fill, as the config file holds them. */
export interface LearnedValues {
  form_parts?: Partial<Record<FormField, string>>;
  param_spelling?: ParamSpelling;
  record_types?: Partial<Record<RecordType, string>>;
  access_tiers?: Partial<Record<AccessTier, string>>;
  job_types?: Record<string, string>;
}

export interface Learned {
  readonly values: LearnedValues;
  /** Per profile key: where it was learned (`OpenAPI http://…/v3/api-docs`, `probe: …`). */
  readonly from: Record<string, string>;
  /** What was seen but needs no setting, or could not be learned, in one sentence each. */
  readonly notes: string[];
}

export function emptyLearned(): Learned {
  return { values: {}, from: {}, notes: [] };
}

/**
 * Adds `key` as learned from `source`, unless an earlier source settled it: its value, or
 * (undefined) that the service uses mdps's default there.
 */
export function learn<K extends keyof LearnedValues>(
  into: Learned,
  key: K,
  value: LearnedValues[K] | undefined,
  source: string,
): void {
  if (into.from[key] !== undefined) return;
  if (value !== undefined) into.values[key] = value;
  into.from[key] = source;
}

/** Whether a source has settled `key` (with a value or mdps's default). */
export function settled(into: Learned, key: keyof LearnedValues): boolean {
  return into.from[key] !== undefined;
}

/** The interface's part names: what a service that says nothing else uses. */
export const INTERFACE_PARTS: Readonly<Record<FormField, string>> = BLOB_FORM_PARTS;

/** mdps's form field a service's part name means (`recordType`, `record_type`, `RecordType`), if any. */
export function formFieldOf(part: string): FormField | undefined {
  const key = part.toLowerCase().replace(/[\s_-]/g, "");
  return FORM_FIELDS.find((f) => f.toLowerCase() === key);
}

/** The part names that differ from the interface's; undefined when none does. */
export function partsThatDiffer(
  parts: Partial<Record<FormField, string>>,
): Partial<Record<FormField, string>> | undefined {
  const differ = Object.entries(parts).filter(([field, name]) => INTERFACE_PARTS[field as FormField] !== name);
  return differ.length === 0 ? undefined : Object.fromEntries(differ);
}

/** The parts a service names in the casing of its file part (`file` -> camelCase, `File` -> the interface's). */
export function partsInCasingOf(filePart: string): Partial<Record<FormField, string>> {
  if (filePart === INTERFACE_PARTS.file) return { ...INTERFACE_PARTS };
  if (filePart === "file") return Object.fromEntries(FORM_FIELDS.map((f) => [f, f]));
  if (filePart === "FILE") return Object.fromEntries(FORM_FIELDS.map((f) => [f, snakeCase(f).toUpperCase()]));
  return { file: filePart };
}

/**
 * mdps's words -> the service's, for the words of `allowed` that are mdps's in another case
 * (`CSV` for csv); undefined when none differs.
 */
export function wordMapOf<K extends string>(
  known: readonly K[],
  allowed: readonly string[],
): Partial<Record<K, string>> | undefined {
  const out: Partial<Record<K, string>> = {};
  for (const word of allowed) {
    const ours = known.find((k) => k === word.toLowerCase());
    if (ours !== undefined && word !== ours) out[ours] = word;
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

export const wordMaps = {
  recordTypes: (allowed: readonly string[]) => wordMapOf(RECORD_TYPES, allowed),
  accessTiers: (allowed: readonly string[]) => wordMapOf(ACCESS_TIERS, allowed),
};

/** scikit-learn's parameter names of every transform (snake_case). */
const PARAM_NAMES: ReadonlySet<string> = new Set(PREPROCESSING_TYPES.flatMap((t) => paramNames(t)));

/**
 * The spelling of parameter names among `names`: camelCase when one is a scikit-learn name
 * in camelCase (`withMean`), snake_case when one is a multi-word name as scikit-learn spells
 * it (`with_mean`); undefined when the names say neither.
 */
export function spellingOf(names: readonly string[]): ParamSpelling | undefined {
  if (names.some((n) => /[a-z][A-Z]/.test(n) && PARAM_NAMES.has(snakeCase(n)))) return "camelCase";
  if (names.some((n) => n.includes("_") && PARAM_NAMES.has(n))) return "snake_case";
  return undefined;
}
