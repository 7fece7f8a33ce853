/**
 * A service's own words for record types and access tiers (the interface does not list
 * them): when it refuses the word mdps sent, the error says which word that was, the
 * service's word where its message shows one, and the three places to set it.
 */
import { ACCESS_TIERS, RECORD_TYPES, type AccessTier, type RecordType } from "../../core/contract/blob.js";
import { APIError, type APIErrorInit } from "../errors.js";
import { WORD_ENV } from "./service-settings.js";

/** The words a call sent: mdps's name of each, and the word on the wire. */
export interface SentWords {
  readonly recordType?: { readonly ours: RecordType; readonly word: string } | undefined;
  readonly accessTier?: { readonly ours: AccessTier; readonly word: string } | undefined;
}

const WORDS = {
  recordType: {
    label: "record type",
    pattern: /record[\s_-]?type/i,
    option: "recordTypes",
    key: "record_types",
    flag: "--record-types",
  },
  accessTier: {
    label: "access tier",
    pattern: /access[\s_-]?tier/i,
    option: "accessTiers",
    key: "access_tiers",
    flag: "--access-tiers",
  },
} as const;

/** The words of a send's output: mdps's name of each where the word is one of mdps's in any case. */
export function wordsOfOutput(
  output: { readonly record_type?: unknown; readonly access_tier?: unknown } | undefined,
): SentWords {
  const ours = <K extends string>(word: unknown, known: readonly K[]): { ours: K; word: string } | undefined => {
    if (typeof word !== "string") return undefined;
    const found = known.find((k) => k === word.toLowerCase());
    return found === undefined ? undefined : { ours: found, word };
  };
  return { recordType: ours(output?.record_type, RECORD_TYPES), accessTier: ours(output?.access_tier, ACCESS_TIERS) };
}

/**
 * `error` with a message and `remedy` that name the refused word and how to set the
 * service's own, when it is a 400 (or 422) about the record type or access tier;
 * else `error` as it was.
 */
export function explainWordRefusal(error: unknown, sent: SentWords): unknown {
  if (!(error instanceof APIError) || error.call === undefined) return error;
  if (error.status !== 400 && error.status !== 422) return error;
  const text = refusalText(error);
  const remedies: string[] = [];
  for (const which of ["recordType", "accessTier"] as const) {
    const word = sent[which];
    const spec = WORDS[which];
    if (word === undefined || !spec.pattern.test(text)) continue;
    const theirs = serviceWordIn(text, word.ours, word.word);
    const example = theirs ?? `<its word for ${word.ours}>`;
    const env = which === "recordType" ? WORD_ENV.recordTypes : WORD_ENV.accessTiers;
    remedies.push(
      `The service refused the ${spec.label} mdps sent as "${word.word}" (for ${word.ours})` +
        `${theirs ? `; its message shows the word "${theirs}"` : ""}. Set the service's word with the ` +
        `${spec.option} option ({ ${word.ours}: "${example}" }), the profile key ${spec.key} ` +
        `({ "${word.ours}": "${example}" }) or ${env}=${word.ours}=${example}; \`mdps configure\` asks for it ` +
        `(${spec.flag} ${word.ours}=${example} without a terminal).`,
    );
  }
  if (remedies.length === 0) return error;
  const remedy = remedies.join(" ");
  const init: APIErrorInit = {
    status: error.status,
    code: error.code,
    message: `${error.message} ${remedy}`,
    title: error.title,
    detail: error.detail,
    type: error.type,
    instance: error.instance,
    requestId: error.requestId,
    errors: error.errors,
    body: error.body,
    headers: error.headers,
    call: error.call,
    remedy,
    cause: error,
  };
  const Ctor = error.constructor as new (init: APIErrorInit) => APIError;
  return new Ctor(init);
}

/** What the service said: detail, title, field names and their messages. */
function refusalText(error: APIError): string {
  const fields = Object.entries(error.errors ?? {}).flatMap(([field, messages]) => [field, ...messages]);
  return [error.detail ?? "", error.title ?? "", ...fields].join("\n");
}

/** A word of the message that is `ours` in another casing (`Csv` for csv), not the word sent. */
function serviceWordIn(text: string, ours: string, sent: string): string | undefined {
  const words = text.match(/[A-Za-z][A-Za-z0-9_-]*/g) ?? [];
  return words.find((w) => w !== sent && w.toLowerCase() === ours.toLowerCase());
}
