/** Plain-fetch calls the tests make against the foreign service; no mdps client code involved. */
import { afterEach } from "vitest";
import { startForeignService, type ForeignService, type ForeignServiceOptions } from "./index.js";

/** A feature column `a`, a label column, and a feature column `b` with a missing value. */
export const SAMPLE_CSV = "a,label,b\n1,x,10\n2,y,\n3,z,30\n4,,40\n";

/** Returns a `start` for the calling test file; every service it started is closed after each test. */
export function useForeignServices(defaults: ForeignServiceOptions = { jobDelayMs: 60 }) {
  const running: ForeignService[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((service) => service.close()));
  });
  return async (options: ForeignServiceOptions = {}): Promise<ForeignService> => {
    const service = await startForeignService({ ...defaults, ...options });
    running.push(service);
    return service;
  };
}

export const PREPROCESSING_SCOPES = "ml.preprocessing.execute ml.preprocessing.read";
export const SHARED_SCOPES =
  "shared.blob.delete shared.blob.download shared.blob.read shared.blob.upload shared.blob.write shared.health.read";
export const EVERY_SCOPE = `${SHARED_SCOPES} ${PREPROCESSING_SCOPES}`;

export function exchange(service: ForeignService, fields: Record<string, string>): Promise<Response> {
  return fetch(`${service.url}/api/authorization/exchange`, { method: "POST", body: new URLSearchParams(fields) });
}

export async function token(service: ForeignService, scope = EVERY_SCOPE): Promise<string> {
  const response = await exchange(service, {
    grant_type: "client_credentials",
    client_id: service.clientId,
    client_secret: service.clientSecret,
    scope,
  });
  if (response.status !== 200) throw new Error(`token: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { access_token: string };
  return body.access_token;
}

export function bearer(accessToken: string): Record<string, string> {
  return { authorization: `Bearer ${accessToken}` };
}

export interface BlobFields {
  readonly File?: string;
  readonly Name?: string;
  readonly RecordType?: string;
  readonly AccessTier?: string;
  readonly Description?: string;
  readonly Tags?: readonly string[];
}

export function blobForm(fields: BlobFields): FormData {
  const form = new FormData();
  if (fields.File !== undefined) form.append("File", new Blob([fields.File], { type: "text/csv" }), "data.csv");
  for (const name of ["Name", "RecordType", "AccessTier", "Description"] as const) {
    const value = fields[name];
    if (value !== undefined) form.append(name, value);
  }
  for (const tag of fields.Tags ?? []) form.append("Tags", tag);
  return form;
}

export function upload(service: ForeignService, accessToken: string, form: FormData): Promise<Response> {
  return fetch(`${service.url}/api/model/${service.modelId}/shared/blob/upload`, {
    method: "POST",
    headers: bearer(accessToken),
    body: form,
  });
}

export async function uploadCsv(service: ForeignService, accessToken: string, csv: string): Promise<string> {
  const response = await upload(
    service,
    accessToken,
    blobForm({ File: csv, Name: "input.csv", RecordType: "Csv", AccessTier: "Hot" }),
  );
  if (response.status !== 200) throw new Error(`upload: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { blobId: string }).blobId;
}

export function postJson(
  url: string,
  accessToken: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { ...bearer(accessToken), "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

export function preprocessingRequest(
  service: ForeignService,
  inputBlobId: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    model_id: service.modelId,
    input_blob_id: inputBlobId,
    preprocessing_type: "StandardScaler",
    feature_columns: ["a"],
    ...overrides,
  };
}

export function sendPreprocessing(
  service: ForeignService,
  accessToken: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return postJson(`${service.url}/api/ml/preprocessing/job/send`, accessToken, body, headers);
}

export function getJson(url: string, accessToken: string): Promise<Response> {
  return fetch(url, { headers: bearer(accessToken) });
}

/** Polls `get` until the status is one of `terminal`; returns each status seen, in order, repeats collapsed. */
export async function pollStatuses(
  service: ForeignService,
  accessToken: string,
  jobId: string,
  terminal: readonly string[] = ["Succeeded", "Failed", "Canceled"],
  family = "/api/ml/preprocessing/job",
): Promise<string[]> {
  const seen: string[] = [];
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const response = await getJson(`${service.url}${family}/${jobId}/get`, accessToken);
    const { status } = (await response.json()) as { status: string };
    if (seen[seen.length - 1] !== status) seen.push(status);
    if (terminal.includes(status)) return seen;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`job ${jobId} did not finish; statuses seen: ${seen.join(", ")}`);
}

export function parseCsvRows(text: string): string[][] {
  return text
    .trim()
    .split("\n")
    .map((line) => line.split(","));
}

/** Uploads `csv`, sends a preprocessing job with `overrides` and polls it to a terminal status. */
export async function finishedJob(
  service: ForeignService,
  accessToken: string,
  overrides: Record<string, unknown> = {},
  csv = SAMPLE_CSV,
): Promise<{ jobId: string; statuses: string[] }> {
  const blobId = await uploadCsv(service, accessToken, csv);
  const response = await sendPreprocessing(service, accessToken, preprocessingRequest(service, blobId, overrides));
  if (response.status !== 200) throw new Error(`send: ${response.status} ${await response.text()}`);
  const { id, status } = (await response.json()) as { id: string; status: string };
  const polled = await pollStatuses(service, accessToken, id);
  // The send's own answer is the first status, so a slow first poll cannot hide it.
  return { jobId: id, statuses: polled[0] === status ? polled : [status, ...polled] };
}

export async function download(service: ForeignService, accessToken: string, blobId: string): Promise<string> {
  const url = `${service.url}/api/model/${service.modelId}/shared/blob/${blobId}/download`;
  const response = await getJson(url, accessToken);
  if (response.status !== 200) throw new Error(`download: ${response.status} ${await response.text()}`);
  return response.text();
}
