/**
 * `session.reloadCredentials()`: the settings are resolved again exactly as at connect
 * (options, then MDPS_* variables, then the config-file profile), so a secret
 * regenerated in the portal and written with `mdps configure` reaches a running kernel.
 */
import type { MdpsClient } from "../client/client.js";
import { resolveConfig, type ConfigOptions, type ConfigSource } from "../client/config.js";
import { mergeServiceSettings, type ServiceSettings } from "../client/vendor/service-settings.js";

export interface CredentialsReload {
  /** The client id the next token is asked for. */
  readonly clientId: string;
  /** The profile read, when the config file was. */
  readonly profile: string | undefined;
  /** Where the secret now comes from. */
  readonly secretFrom: ConfigSource;
  /** False when the secret is the one used before (a secret given to `connect` as an option wins again). */
  readonly secretChanged: boolean;
}

/** Swaps the client's credentials for the re-resolved ones and gets a token with them. */
export async function reloadCredentials(
  client: MdpsClient,
  options: ConfigOptions & ServiceSettings,
): Promise<CredentialsReload> {
  const resolved = resolveConfig(options);
  // As at connect, the Session's own settings win over the profile's (../session/session-open.ts).
  const next = { ...resolved, service: mergeServiceSettings(options, resolved.service) };
  const secretChanged = !next.clientSecret.equals(client.config.clientSecret);
  client.useCredentials(next);
  // A wrong secret fails here, in the cell that reloaded, not in the next job's call.
  await client.tokens.get();
  return {
    clientId: next.clientId,
    profile: next.profile,
    secretFrom: next.sources.clientSecret ?? "default",
    secretChanged,
  };
}
