/**
 * `mdps doctor --probe`: what the service shows of its wire choices against the configured
 * profile (./learned-checks.ts), then whether it takes the record type and access tier words
 * mdps would send (the interface does not list their values), tried with a one-row CSV
 * upload that is deleted at once where the token may delete blobs. Each outcome is a
 * doctor line: what the service accepted or refused, and the setting to change.
 */
import { randomUUID } from "node:crypto";
import type { MdpsClient } from "../client.js";
import { doctor, summaryOf, TRANSIENT_REMEDY, type DoctorCheck, type DoctorReport } from "../diagnostics.js";
import { isTransientAnswer } from "../transient.js";
import { learnedChecks } from "./learned-checks.js";
import { missingPart } from "./service-probes.js";
import { BLOB_FORM_PARTS } from "../../core/contract/blob.js";
import { APIError, PermissionDeniedError } from "../errors.js";
import { WORD_ENV } from "./service-settings.js";
import { CAPABILITIES } from "../../core/contract/health.js";

const PROBE_CSV = new TextEncoder().encode("mdps_probe\n1\n");

/** The words a CSV upload to the hot tier sends, and where they come from. */
function probeWords(client: MdpsClient): { recordType: string; accessTier: string; from: string } {
  const { recordTypes, accessTiers } = client.config.service;
  const set = recordTypes?.csv !== undefined || accessTiers?.hot !== undefined;
  return {
    recordType: recordTypes?.csv ?? "csv",
    accessTier: accessTiers?.hot ?? "hot",
    from: set ? "the configured words" : "mdps's own words (none configured)",
  };
}

/**
 * `doctor`'s checks and, with `probe` and a token to hand, the one-row upload that shows
 * whether the service takes the configured words. Without `probe`, on a service that does
 * not declare mdps's contract (whose words are mdps's own), a line says they were not
 * tried: the interface does not list a service's words, so "all is well" cannot cover them.
 */
export async function doctorWithProbe(
  client: MdpsClient,
  options: { readonly probe?: boolean | undefined } = {},
): Promise<DoctorReport> {
  const report = await doctor(client);
  const words = probeWords(client);
  const skipped = (detail: string): DoctorCheck[] => [
    { check: "upload words", status: "skipped", detail, remedy: undefined },
  ];
  const probe = !options.probe
    ? (await followsContract(client))
      ? []
      : skipped(
          `not tried: RecordType "${words.recordType}", AccessTier "${words.accessTier}" (${words.from}); ` +
            `mdps doctor --probe (session.doctor({ probe: true })) tries them with a one-row upload`,
        )
    : report.whoami === undefined
      ? skipped("needs a token first")
      : // What the service shows of its choices first (its OpenAPI document, refused probes), then the upload.
        [...(await learnedChecks(client)), ...(await probeUpload(client))];
  const checks = [...report.checks, ...probe];
  return { ...report, checks, ok: checks.every((c) => c.status !== "failed") };
}

/** Whether health declares one of mdps's contract extensions (docs/contract.md#extensions): mdps's words hold there. */
async function followsContract(client: MdpsClient): Promise<boolean> {
  const answers = await Promise.all(CAPABILITIES.map((c) => client.capabilities.check(c).catch(() => "unknown")));
  return answers.includes("declared");
}

/** Uploads a one-row CSV with the configured words, then deletes it; never throws. */
export async function probeUpload(client: MdpsClient): Promise<DoctorCheck[]> {
  const words = probeWords(client);
  const sent = `RecordType "${words.recordType}" and AccessTier "${words.accessTier}" (${words.from})`;
  const name = `mdps-doctor-probe-${randomUUID().slice(0, 8)}.csv`;
  let blobId: string;
  try {
    const record = await client.blobs.upload(
      {
        name,
        recordType: "csv",
        accessTier: "hot",
        recordTypeWord: words.recordType,
        accessTierWord: words.accessTier,
        description: "mdps doctor --probe: a one-row upload, deleted at once",
      },
      PROBE_CSV,
    );
    blobId = record.id;
  } catch (error) {
    return [refused(error, sent)];
  }
  const checks: DoctorCheck[] = [
    {
      check: "upload words",
      status: "ok",
      detail: `the service accepted ${sent}: a one-row upload, blob ${blobId}`,
      remedy: undefined,
    },
  ];
  try {
    await client.blobs.delete(blobId);
    checks.push({
      check: "probe deleted",
      status: "ok",
      detail: `blob ${blobId} (${name}) deleted`,
      remedy: undefined,
    });
  } catch (error) {
    checks.push({
      check: "probe deleted",
      status: "warning",
      detail: `blob ${blobId} (${name}) is left: ${summaryOf(error)}`,
      remedy:
        error instanceof PermissionDeniedError
          ? "The token may not delete blobs (mdps assumes shared.blob.delete; the interface does not say): " +
            "delete it in the portal, or with an application that may."
          : "Delete it in the portal, or run mdps doctor --probe again later.",
    });
  }
  return checks;
}

function refused(error: unknown, sent: string): DoctorCheck {
  // A part the service misses is about the form's part names, not the words.
  const part = error instanceof APIError ? missingPart(error) : undefined;
  if (part !== undefined && part !== BLOB_FORM_PARTS.file) {
    return {
      check: "upload words",
      status: "failed",
      detail: `a one-row upload with ${sent}: ${summaryOf(error)}`,
      remedy:
        `The service wants a form part named '${part}': its part names are not the interface's. Run mdps configure ` +
        `(it learns them: profile key form_parts), or set form_parts yourself (docs/vendors.md).`,
    };
  }
  // A refusal of a word carries how to set the service's own (./vendor-words.ts).
  if (error instanceof APIError && error.remedy !== undefined && (error.status === 400 || error.status === 422)) {
    return {
      check: "upload words",
      status: "failed",
      detail: `the service refused ${sent}: ${summaryOf(error)}${fieldsOf(error)}`,
      remedy: error.remedy,
    };
  }
  const about400 = error instanceof APIError && (error.status === 400 || error.status === 422);
  return {
    check: "upload words",
    status: "failed",
    detail: `a one-row upload with ${sent}: ${summaryOf(error)}${error instanceof APIError ? fieldsOf(error) : ""}`,
    remedy: about400
      ? `If the service's message is about RecordType or AccessTier, set its words: the profile keys record_types / ` +
        `access_tiers, ${WORD_ENV.recordTypes} / ${WORD_ENV.accessTiers} (csv=Csv,...), or mdps configure.`
      : isTransientAnswer(error)
        ? TRANSIENT_REMEDY
        : error instanceof PermissionDeniedError
          ? "The token may not upload (mdps assumes shared.blob.upload; the interface does not say): add the scope the service names."
          : "Fix what the doctor's other lines say first, then run mdps doctor --probe again.",
  };
}

/** A ValidationProblemDetails' field messages (its title alone says nothing of the field). */
function fieldsOf(error: APIError): string {
  const fields = Object.entries(error.errors ?? {}).map(([field, messages]) => `${field}: ${messages.join(" ")}`);
  return fields.length === 0 ? "" : ` (${fields.join("; ")})`;
}
