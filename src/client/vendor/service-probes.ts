/**
 * Safe probes for what a service's OpenAPI document would have said: requests incomplete or
 * wrong on purpose, so the service refuses them before it stores anything, and its 400 (Spring's
 * "Required part 'file' is not present", ASP.NET's `errors`, a ProblemDetails listing allowed
 * values) names what it wants. A service that accepts one anyway gets the blob deleted at once.
 */
import { randomUUID } from "node:crypto";
import type { MdpsClient } from "../client.js";
import type { FormProbePart, ProbeAnswer } from "./discovery.js";
import { APIError } from "../errors.js";
import {
  formFieldOf,
  INTERFACE_PARTS,
  learn,
  partsInCasingOf,
  partsThatDiffer,
  settled,
  spellingOf,
  wordMaps,
  type Learned,
} from "./learned-profile.js";
import type { FormField } from "./service-settings.js";
import { writtenIdOf } from "../unreadable-answer.js";

/** A word no service uses: its refusal lists the service's own. */
const PROBE_WORD = "mdps-probe";

/** Probes for each fact no earlier source (the OpenAPI document) settled. */
export async function probeService(client: MdpsClient, into: Learned): Promise<void> {
  const found = settled(into, "form_parts") ? (into.values.form_parts ?? {}) : await probeFormParts(client, into);
  const parts = { ...INTERFACE_PARTS, ...found };
  if (!settled(into, "record_types") || !settled(into, "access_tiers")) await probeWords(client, parts, into);
  if (!settled(into, "param_spelling")) await probeParamSpelling(client, into);
  if (!settled(into, "job_types")) await probeJobTypes(client, into);
}

/** A generic send without a payload (so no job can start), with a job type no service uses. */
async function probeJobTypes(client: MdpsClient, into: Learned): Promise<void> {
  const answer = await client.discovery.send("job", {
    job_id: randomUUID(),
    model_id: client.modelId,
    job_type: PROBE_WORD,
  });
  const allowed = allowedAfter(answer, "job_type") ?? allowedAfter(answer, "jobType");
  const preprocessing = allowed?.find((w) => w.toLowerCase() === "preprocessing");
  if (preprocessing === undefined) {
    into.notes.push(`job type words: the generic send listed none (${said(answer)}); mdps's own kept`);
    return;
  }
  const differs = preprocessing === "preprocessing" ? undefined : { preprocessing };
  learn(
    into,
    "job_types",
    differs,
    `probe: a job send of type "${PROBE_WORD}" was refused, listing ${allowed?.join(", ")}`,
  );
}

/** An empty upload: the part the service names as missing first is its file part, in its casing. */
async function probeFormParts(client: MdpsClient, into: Learned): Promise<Partial<Record<FormField, string>>> {
  const answer = await client.discovery.upload([]);
  const missing = "refused" in answer ? missingPart(answer.refused) : undefined;
  if (missing === undefined || formFieldOf(missing) !== "file") {
    into.notes.push(`form parts: an empty upload's answer named no file part (${said(answer)}); the interface's kept`);
    return {};
  }
  const parts = partsInCasingOf(missing);
  const source = `probe: an empty upload's 400 named the part '${missing}' (the others in its casing)`;
  learn(into, "form_parts", partsThatDiffer(parts), source);
  return parts;
}

/** Uploads with a word no service uses: the refusal lists the record types, then the access tiers. */
async function probeWords(
  client: MdpsClient,
  parts: Readonly<Record<FormField, string>>,
  into: Learned,
): Promise<void> {
  const form = (recordType: string, accessTier: string): FormProbePart[] => [
    { name: parts.name, value: `mdps-configure-probe-${randomUUID().slice(0, 8)}.csv` },
    { name: parts.recordType, value: recordType },
    { name: parts.accessTier, value: accessTier },
    { name: parts.file, value: "mdps_probe\n1\n", filename: "mdps-probe.csv" },
  ];
  const first = await uploadOrDelete(client, form(PROBE_WORD, PROBE_WORD), into);
  const recordTypes = allowedAfter(first, parts.recordType);
  const recordWords = recordTypes === undefined ? undefined : wordMaps.recordTypes(recordTypes);
  const source = `probe: an upload with RecordType "${PROBE_WORD}" was refused, listing ${recordTypes?.join(", ")}`;
  learn(into, "record_types", recordWords, source);
  const csv = recordTypes?.find((w) => w.toLowerCase() === "csv");
  const tierAnswer = csv === undefined ? first : await uploadOrDelete(client, form(csv, PROBE_WORD), into);
  const tiers = allowedAfter(tierAnswer, parts.accessTier);
  const tierSource = `probe: an upload with AccessTier "${PROBE_WORD}" was refused, listing ${tiers?.join(", ")}`;
  learn(into, "access_tiers", tiers === undefined ? undefined : wordMaps.accessTiers(tiers), tierSource);
  if (recordTypes === undefined) into.notes.push(`record type words: not listed by the service (${said(first)})`);
}

/** A preprocessing send without its input (so no job can start), with a parameter in scikit-learn's spelling. */
async function probeParamSpelling(client: MdpsClient, into: Learned): Promise<void> {
  const answer = await client.discovery.send("preprocessing", {
    model_id: client.modelId,
    preprocessing_type: "StandardScaler",
    preprocessing_params: { with_mean: true },
    feature_columns: ["mdps_probe"],
  });
  const text = "refused" in answer ? textOf(answer.refused) : "";
  const words = text.match(/[A-Za-z][A-Za-z0-9_]*/g) ?? [];
  const spelling = /with_mean/.test(text) && spellingOf(words) === "camelCase" ? "camelCase" : undefined;
  if (spelling !== undefined) {
    learn(into, "param_spelling", spelling, "probe: a send with with_mean was refused, listing camelCase names");
  } else {
    into.notes.push(`parameter spelling: the service did not refuse with_mean (${said(answer)}); snake_case kept`);
  }
}

/** A probe upload's answer; a blob the service stored anyway is deleted at once. */
async function uploadOrDelete(client: MdpsClient, form: FormProbePart[], into: Learned): Promise<ProbeAnswer> {
  const answer = await client.discovery.upload(form);
  if ("accepted" in answer) {
    const id = writtenIdOf(answer.accepted);
    const deleted =
      typeof id === "string"
        ? await client.blobs.delete(id).then(
            () => "deleted at once",
            () => "NOT deleted",
          )
        : "with no id";
    into.notes.push(`a probe upload was accepted (blob ${String(id)}, ${deleted}): the service takes any word`);
  }
  return answer;
}

/** The words a refusal about `part` lists as allowed, or undefined. */
function allowedAfter(answer: ProbeAnswer, part: string): string[] | undefined {
  if (!("refused" in answer)) return undefined;
  const text = textOf(answer.refused);
  if (
    !text
      .toLowerCase()
      .replace(/[\s_-]/g, "")
      .includes(part.toLowerCase().replace(/[\s_-]/g, ""))
  )
    return undefined;
  const list =
    /(?:one of|allowed(?: values)?:?|accepted values:?|must be(?: one of)?|expected(?: one of)?)\s*\[?([^\]\n.;]+)/i.exec(
      text.slice(Math.max(0, text.toLowerCase().indexOf(PROBE_WORD))),
    )?.[1];
  const words = list
    ?.split(/[,|]|\s+or\s+/)
    .map((w) => w.trim().replace(/^['"`]|['"`]$/g, ""))
    .filter((w) => /^[A-Za-z][\w-]*$/.test(w) && w !== PROBE_WORD);
  return words === undefined || words.length === 0 ? undefined : words;
}

/** The part a 400 names as missing: Spring's `Required part 'x'`, ASP.NET's `errors` keys, plain text. */
export function missingPart(error: APIError): string | undefined {
  if (error.status !== 400 && error.status !== 422) return undefined;
  const text = textOf(error);
  const quoted = /(?:part|parameter|field)\s+'([^']+)'|'([^']+)'\s+is (?:not present|required|missing)/i.exec(text);
  if (quoted !== null) return quoted[1] ?? quoted[2];
  const fields = Object.keys(error.errors ?? {}).find((f) => formFieldOf(f) === "file");
  if (fields !== undefined) return fields;
  return /\b(file)\b is (?:required|missing)/i.exec(text)?.[1];
}

function textOf(error: APIError): string {
  const fields = Object.entries(error.errors ?? {}).flatMap(([field, messages]) => [field, ...messages]);
  const body = typeof error.body === "string" ? error.body : JSON.stringify(error.body ?? "");
  return [error.detail ?? "", error.title ?? "", ...fields, body].join("\n");
}

function said(answer: ProbeAnswer): string {
  return "refused" in answer
    ? `${answer.refused.status ?? ""} ${answer.refused.detail ?? answer.refused.message}`.trim()
    : "accepted";
}
