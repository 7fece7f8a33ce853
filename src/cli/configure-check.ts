/**
 * The check of `mdps configure`: `mdps doctor`'s checks on the new settings. Without
 * scopes given, the token request asks for every Session scope and, when refused, keeps
 * those the application holds (AuthResource's narrowing); the scopes written are those
 * asked for in the end, so the profile names scopes that work.
 */
import { MdpsClient } from "../client/client.js";
import type { ClientConfig } from "../client/config.js";
import { doctor, type DoctorReport } from "../client/diagnostics.js";

/**
 * An address that does not answer in this time is reported, not waited on; as for the
 * portal probe of `mdps doctor`. No retries: a failed check is re-run by hand, not waited out.
 */
const CHECK_TIMEOUT_MS = 10_000;

export interface ProfileCheck {
  readonly report: DoctorReport;
  /** The scopes the checks asked for: the configured ones, else the Session's, narrowed to those the application holds. */
  readonly scopes: readonly string[];
}

export async function checkProfile(config: ClientConfig): Promise<ProfileCheck> {
  const client = new MdpsClient(config, { retry: { maxRetries: 0 }, timeoutMs: CHECK_TIMEOUT_MS });
  try {
    const report = await doctor(client);
    return { report, scopes: client.auth.requestedScopes };
  } finally {
    await client.close();
  }
}
