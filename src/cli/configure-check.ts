/**
 * The check of `mdps configure`: `mdps doctor`'s checks on the new settings, with the
 * scopes settled first. Without scopes given, the scope lists below are asked for in
 * turn and the first the service grants is the one written, so the profile names scopes
 * that work, and keeps shared.health.read (the region check) where the application has it.
 */
import { SESSION_SCOPES, WORKFLOW_SCOPES } from "../client/auth.js";
import { MdpsClient } from "../client/client.js";
import type { ClientConfig } from "../client/config.js";
import { doctor, type DoctorReport } from "../client/diagnostics.js";
import { OAuthError } from "../client/errors.js";
import { ENDPOINT_SCOPES } from "../contract/scopes.js";

/**
 * An address that does not answer in this time is reported, not waited on; as for the
 * portal probe of `mdps doctor`. No retries: a failed check is re-run by hand, not waited out.
 */
const CHECK_TIMEOUT_MS = 10_000;

const DEFAULT_SCOPE_LISTS: readonly (readonly string[])[] = [
  SESSION_SCOPES,
  [...WORKFLOW_SCOPES, ENDPOINT_SCOPES.health],
  WORKFLOW_SCOPES,
];

export interface ProfileCheck {
  readonly report: DoctorReport;
  /** The scopes the checks asked for: the configured ones, else the first default list granted. */
  readonly scopes: readonly string[];
}

export async function checkProfile(config: ClientConfig): Promise<ProfileCheck> {
  const lists = config.scopes.length > 0 ? [config.scopes] : DEFAULT_SCOPE_LISTS;
  for (const [index, scopes] of lists.entries()) {
    const client = new MdpsClient({ ...config, scopes }, { retry: { maxRetries: 0 }, timeoutMs: CHECK_TIMEOUT_MS });
    try {
      if (index < lists.length - 1) {
        const refused = await client.auth.exchange().then(
          () => false,
          (error: unknown) => error instanceof OAuthError && error.code === "invalid_scope",
        );
        if (refused) continue;
      }
      return { report: await doctor(client), scopes };
    } finally {
      await client.close();
    }
  }
  throw new Error("unreachable: the last scope list is always checked");
}
