/**
 * How a Session comes to be: `connect` resolves its settings and reads health (region,
 * capabilities); `local` asks the opener src/local/ provides to start the reference
 * service in this process with its own application. Both hand the Session its parts.
 */
import type { JobStatusVocabularyOptions } from "../core/contract/job-status.js";
import { MdpsClient, type ClientOptions } from "../client/client.js";
import { resolveConfig, type ClientConfig } from "../client/config.js";
import { ConfigError, PermissionDeniedError } from "../client/errors.js";
import { mergeServiceSettings, type ServiceSettings } from "../client/vendor/service-settings.js";
import type { TransportOptions } from "../client/transport.js";
import { configDirOf, Journal, journalPath } from "./journal.js";
import { ServiceProfile } from "../client/vendor/service-profile.js";

/**
 * What the Session may assume of the service (../client/vendor/service-profile.ts): `wireFormat`
 * (default `arrow` where the service declares it, else `csv`), `capabilities` to rely
 * on beyond those declared, and the service's words for record types and access tiers.
 */
export interface SessionOptions extends JobStatusVocabularyOptions, ServiceSettings {}

export interface ConnectOptions extends ClientOptions, SessionOptions {
  /** Check the service's health (and region) while connecting. Default true. */
  readonly verify?: boolean | undefined;
  /**
   * The client journal (./journal.ts): where this session records the jobs and blobs it
   * makes, so `jobs()`, `blobs()` and `modelBlobs()` find them after a restart. Default
   * `<config dir>/journal/<service>.jsonl` (none with `configFile: false`); a path to
   * choose the file; `false` for none.
   */
  readonly journal?: boolean | string | undefined;
}

/**
 * The embedded service's own options (`dataDir`, `service`, `env`, `autoInputRetentionMs`):
 * src/local/ adds them by declaration merging, as it owns that service.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface EmbeddedServiceOptions {}

export interface LocalOptions extends EmbeddedServiceOptions, SessionOptions, TransportOptions {}

/** The embedded service behind a local session, as the session uses it. */
export interface EmbeddedService {
  readonly dataDir: string;
  /** A one-time portal login link that lives in this process only. */
  notebookLink(): string;
  close(): Promise<void>;
}

type LocalOpener = (options: LocalOptions) => Promise<SessionParts>;
let localOpener: LocalOpener | undefined;

/** How `Session.local()` starts its service: src/local/ provides it when the package's entry loads. */
export function provideLocalOpener(opener: LocalOpener): void {
  localOpener = opener;
}

export interface SessionParts {
  readonly client: MdpsClient;
  readonly options: SessionOptions;
  readonly profile: ServiceProfile;
  readonly region: string | undefined;
  readonly local?: EmbeddedService | undefined;
  readonly journal?: Journal | undefined;
  /** What `connect` resolved its settings from, to resolve them again (`reloadCredentials`). */
  readonly connectOptions?: ConnectOptions | undefined;
}

/** A connected session's parts: the client, and health's region and capabilities unless `verify: false`. */
export async function openConnected(options: ConnectOptions): Promise<SessionParts> {
  const resolved = resolveConfig(options);
  // The Session's own settings win over the profile's in the client too (form parts, grace).
  const config = { ...resolved, service: mergeServiceSettings(options, resolved.service) };
  const client = new MdpsClient(config, options);
  let region: string | undefined;
  let capabilities: readonly string[] | undefined;
  if (options.verify !== false) {
    try {
      const health = await client.health.get();
      region = health.region;
      capabilities = health.capabilities ?? [];
    } catch (error) {
      if (!(error instanceof PermissionDeniedError) || config.region !== undefined) {
        await client.close();
        if (error instanceof PermissionDeniedError) {
          throw new ConfigError(
            `Cannot check that the service is in region ${config.region}: it refused the health check with 403` +
              `${error.detail ? ` ("${error.detail}")` : ""}. The token was asked for ${client.auth.requestedScopes.join(" ")}; ` +
              `mdps assumes health needs shared.health.read (the interface does not say). Give the application the scope ` +
              `the service names, or unset MDPS_REGION to skip the check.`,
            [],
            { cause: error },
          );
        }
        throw error;
      }
    }
    if (config.region !== undefined && region !== undefined && region !== config.region) {
      await client.close();
      throw new ConfigError(
        `Region mismatch: MDPS_REGION (or the region option) is "${config.region}" but the service at ${config.baseUrl} ` +
          `reports region "${region}". The portal, authentication API and model API must be of one region: ` +
          `fix MDPS_BASE_URL / MDPS_AUTH_URL or MDPS_REGION.`,
      );
    }
  }
  const profile = profileOf(client, options, capabilities);
  return { client, options, profile, region, journal: openJournal(options, config), connectOptions: options };
}

/** A local session's parts, from the opener src/local/ provides (see `provideLocalOpener`). */
export async function openLocal(options: LocalOptions): Promise<SessionParts> {
  if (localOpener === undefined) {
    throw new ConfigError(
      'Session.local() starts the embedded service, which mdps\'s entry provides: import { Session } from "mdps".',
    );
  }
  return localOpener(options);
}

/** What the session assumes of its service: health's capabilities (undefined: not read) and the settings. */
export function profileOf(
  client: MdpsClient,
  options: SessionOptions,
  declared: readonly string[] | undefined,
): ServiceProfile {
  return new ServiceProfile({
    declared,
    settings: mergeServiceSettings(options, client.config.service),
    // Health not read at connect (verify: false): asked once, when first needed.
    ask: async (capability) => (await client.capabilities.check(capability)) === "declared",
  });
}

/** The journal a connected session keeps (ConnectOptions.journal). */
function openJournal(options: ConnectOptions, config: ClientConfig): Journal | undefined {
  const choice = options.journal ?? options.configFile !== false;
  if (choice === false) return undefined;
  const path =
    typeof choice === "string"
      ? choice
      : journalPath({
          configDir: configDirOf(options.env ?? process.env),
          baseUrl: config.baseUrl,
          modelId: config.modelId,
        });
  return Journal.open(path);
}
