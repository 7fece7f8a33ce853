/**
 * `doctor --probe`'s lines about the service profile: what learning finds out
 * (./service-learning.ts) against what the configuration says, one line per fact. A fact the
 * configuration lacks or says otherwise is a warning whose remedy is `mdps configure`, which
 * learns and saves them all.
 */
import type { MdpsClient } from "../client.js";
import type { DoctorCheck } from "../diagnostics.js";
import { learnService, type Learned } from "./service-learning.js";
import type { ServiceSettings } from "./service-settings.js";

/** The profile key of each learned fact -> the setting it is in the client's configuration. */
const CONFIGURED: Readonly<Record<string, (s: ServiceSettings) => unknown>> = {
  form_parts: (s) => s.formParts,
  param_spelling: (s) => s.paramSpelling,
  record_types: (s) => s.recordTypes,
  access_tiers: (s) => s.accessTiers,
  job_types: (s) => s.jobTypes,
};

export async function learnedChecks(client: MdpsClient): Promise<DoctorCheck[]> {
  const learned = await learnService(client);
  return checksOf(learned, client.config.service, client.config.profile);
}

export function checksOf(learned: Learned, service: ServiceSettings, profile: string | undefined): DoctorCheck[] {
  const configure = `mdps configure${profile === undefined ? "" : ` --profile ${profile}`}`;
  const checks: DoctorCheck[] = Object.entries(learned.from).map(([key, source]) => {
    const value = learned.values[key as keyof Learned["values"]];
    const configured = CONFIGURED[key]?.(service);
    const same = sameValue(value, configured);
    return {
      check: `service profile: ${key}`,
      status: same ? "ok" : "warning",
      detail: `the service uses ${shown(value)} (${source})${same ? "" : `; the configuration says ${shown(configured)}`}`,
      remedy: same ? undefined : `Run ${configure}: it learns these and saves them in the profile (or set ${key}).`,
    };
  });
  const notes = learned.notes.map((note): DoctorCheck => ({
    check: "service profile",
    status: "skipped",
    detail: note,
    remedy: undefined,
  }));
  return [...checks, ...notes];
}

function shown(value: unknown): string {
  if (value === undefined) return "mdps's default";
  if (typeof value === "string") return value;
  return Object.entries(value as Record<string, unknown>)
    .map(([ours, theirs]) => `${ours}=${String(theirs)}`)
    .join(",");
}

/** Equal as settings: a map's entries in any order, and mdps's default as no setting. */
function sameValue(a: unknown, b: unknown): boolean {
  const empty = (v: unknown) =>
    v === undefined || v === "snake_case" || (typeof v === "object" && v !== null && Object.keys(v).length === 0);
  if (empty(a) || empty(b)) return empty(a) && empty(b);
  if (typeof a !== "object" || typeof b !== "object") return a === b;
  const ea = Object.entries(a as object).sort();
  const eb = Object.entries(b as object).sort();
  return JSON.stringify(ea) === JSON.stringify(eb);
}
