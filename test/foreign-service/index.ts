/**
 * A second, independent implementation of the Model Data Preprocessing Service interface, for
 * tests: one base URL serves both the authentication API and the model API, unless the
 * switches give the token exchange an origin of its own and the model API a context path.
 *
 * @example
 * const service = await startForeignService({ statusWords: { succeeded: "Completed" } });
 * // ... point a client at service.url with service.clientId / service.clientSecret ...
 * await service.close();
 */
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { buildApp, buildAuthApp } from "./app.js";
import { Application, newClientId, newSecret, TokenIssuer } from "./auth.js";
import { BlobStore } from "./blob-store.js";
import { JobRunner, type JobState } from "./job-runner.js";
import { statusWord } from "./job-views.js";
import { SignedLinks } from "./signed-links.js";
import { resolveSettings, type ForeignServiceOptions, type RequestLine } from "./switches.js";

export type { ForeignServiceOptions, RequestLine, RequestMatcher, RetryAfterSwitch, StatusWords } from "./switches.js";
export { ALL_SCOPES, BASELINE_STATUS_WORDS } from "./switches.js";
export type { JobState } from "./job-runner.js";

/** A job as tests see it through `jobs()`: a snapshot, taken when `jobs()` is called. */
export interface ForeignJob {
  readonly id: string;
  readonly via: "preprocessing" | "generic";
  /** The job id the client sent (generic `job_id`, or preprocessing `job_id` / Idempotency-Key). */
  readonly clientJobId: string | undefined;
  readonly state: JobState;
  /** `state` in the configured status words, as the wire shows it. */
  readonly status: string;
  readonly createdAt: string;
  readonly preprocessingType: string;
  readonly inputBlobId: string;
  readonly outputBlobIds: readonly string[];
  readonly error: string | undefined;
}

export interface ForeignService {
  /** The model API's origin, e.g. `http://127.0.0.1:40123`, no trailing slash. */
  readonly url: string;
  /** The token exchange's origin: `url`, or its own with `authOrigin: "separate"`. */
  readonly authUrl: string;
  /** `url` and the context path (`contextPath`), the model API's base_url. */
  readonly baseUrl: string;
  readonly clientId: string;
  /** The secret at start; `regenerateSecret()` replaces it. */
  readonly clientSecret: string;
  readonly modelId: string;
  /** Like the portal's "Regenerate secret": returns the new secret; the old one stops working. */
  regenerateSecret(): string;
  jobs(): readonly ForeignJob[];
  /** The names of the blobs it holds now (uploads and job outputs). */
  blobNames(): readonly string[];
  /** Every request received, in arrival order, including those a fault switch answered. */
  requests(): readonly RequestLine[];
  close(): Promise<void>;
}

export async function startForeignService(options: ForeignServiceOptions = {}): Promise<ForeignService> {
  const settings = resolveSettings(options);
  const modelId = options.modelId ?? randomUUID();
  const clientId = options.clientId ?? newClientId();
  const clientSecret = options.clientSecret ?? newSecret();
  const application = new Application(clientId, clientSecret, new Set(settings.assignedScopes));
  const issuer = new TokenIssuer(application, settings);
  const blobs = new BlobStore();
  const runner = new JobRunner(blobs, settings);
  const seen: RequestLine[] = [];
  const app = await buildApp({
    modelId,
    settings,
    issuer,
    blobs,
    runner,
    links: new SignedLinks(),
    seen: (line) => seen.push(line),
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const { port } = app.server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  // A separate auth origin: the token exchange alone, on a port of its own.
  const authApp =
    settings.authOrigin === "separate"
      ? await buildAuthApp({ settings, issuer, seen: (line) => seen.push(line) })
      : undefined;
  if (authApp !== undefined) await authApp.listen({ host: "127.0.0.1", port: 0 });
  const authUrl = authApp === undefined ? url : `http://127.0.0.1:${(authApp.server.address() as AddressInfo).port}`;
  return {
    url,
    authUrl,
    baseUrl: `${url}${settings.contextPath}`,
    clientId,
    clientSecret,
    modelId,
    regenerateSecret: () => application.regenerateSecret(),
    jobs: () =>
      runner.all().map((job) => ({
        id: job.id,
        via: job.via,
        clientJobId: job.clientJobId,
        state: job.state,
        status: statusWord(job.state, settings.statusWords),
        createdAt: job.createdAt,
        preprocessingType: job.spec.preprocessingType,
        inputBlobId: job.spec.inputBlobId,
        outputBlobIds: [...job.outputBlobIds],
        error: job.error,
      })),
    blobNames: () => blobs.names(),
    requests: () => [...seen],
    close: async () => {
      runner.close();
      await app.close();
      await authApp?.close();
    },
  };
}
