/**
 * "Who am I and what may I do here": the configured addresses, the token's client,
 * model, scopes and expiry, and per endpoint of the interface whether those scopes
 * allow it (`whoami`); then whether each address answers and health's region matches,
 * each failing line with its remedy (`doctor`).
 */
import { shownUrl, withShownUrls } from "../core/errors/shown-url.js";
import type { TokenResponse } from "../core/contract/auth.js";
import type { Scope } from "../core/contract/scopes.js";
import type { MdpsClient } from "./client.js";
import { WORKFLOW_SCOPES } from "./auth.js";
import { oauthAdvice } from "./error-factory.js";
import { APIError, MdpsError, OAuthError, PermissionDeniedError } from "./errors.js";
import { Transport, type TransportOptions } from "./transport.js";
import { isTransientAnswer } from "./transient.js";

/**
 * The interface's endpoints and the scope mdps assumes each needs: docs/contract.md#scopes,
 * which the reference service follows. The interface itself does not say, so another
 * service may ask for other scopes: shown as an assumption, never as the service's word.
 */
export const INTERFACE_ENDPOINTS: ReadonlyArray<{ method: string; path: string; scope: Scope }> = [
  { method: "POST", path: "/api/model/{modelId}/shared/blob/upload", scope: "shared.blob.upload" },
  { method: "GET", path: "/api/model/{modelId}/shared/blob/{blobId}/download", scope: "shared.blob.download" },
  { method: "PUT", path: "/api/model/{modelId}/shared/blob/{blobId}/update", scope: "shared.blob.write" },
  { method: "DELETE", path: "/api/model/{modelId}/shared/blob/{blobId}/delete", scope: "shared.blob.delete" },
  { method: "GET", path: "/api/shared/health", scope: "shared.health.read" },
  { method: "POST", path: "/api/job/send", scope: "ml.preprocessing.execute" },
  { method: "GET", path: "/api/job/{id}/get", scope: "ml.preprocessing.read" },
  { method: "GET", path: "/api/job/{id}/logs", scope: "ml.preprocessing.read" },
  { method: "GET", path: "/api/job/{id}/result", scope: "ml.preprocessing.read" },
  { method: "POST", path: "/api/ml/preprocessing/job/send", scope: "ml.preprocessing.execute" },
  { method: "GET", path: "/api/ml/preprocessing/job/{id}/get", scope: "ml.preprocessing.read" },
  { method: "GET", path: "/api/ml/preprocessing/job/{id}/logs", scope: "ml.preprocessing.read" },
  { method: "GET", path: "/api/ml/preprocessing/job/{id}/result", scope: "ml.preprocessing.read" },
];

export interface EndpointAccess {
  readonly method: string;
  readonly path: string;
  readonly scope: Scope;
  /** Whether the token's scopes include it; undefined when the service did not say which it granted. */
  readonly allowed: boolean | undefined;
}

export interface WhoAmI {
  readonly baseUrl: string;
  readonly authUrl: string;
  readonly appUrl: string;
  /** The region configured (MDPS_REGION / `region`); undefined: none. */
  readonly region: string | undefined;
  /** The region health reports, when it could be read. */
  readonly serviceRegion: string | undefined;
  readonly clientId: string;
  readonly modelId: string;
  readonly profile: string | undefined;
  /** The scopes asked for in the token request. */
  readonly requestedScopes: readonly string[];
  /** Session scopes no longer asked for because the service refused them (see AuthResource.droppedScopes). */
  readonly refusedScopes: { readonly scopes: readonly string[]; readonly how: "named" | "probed" } | undefined;
  /** The scopes granted (the token response's `scope`, or the token's own claims); undefined when neither says. */
  readonly grantedScopes: readonly string[] | undefined;
  /** Where `grantedScopes` came from. */
  readonly scopesFrom: "token response" | "token claims" | "requested (the service did not say)";
  readonly tokenType: string;
  readonly expiresInSeconds: number;
  readonly expiresAt: string;
  readonly endpoints: readonly EndpointAccess[];
}

/** Asks for a token (the only call besides health it makes) and describes it; never shows the token or secret. */
export async function whoami(
  client: MdpsClient,
  options: { serviceRegion?: string | undefined } = {},
): Promise<WhoAmI> {
  const { config } = client;
  const issued = Date.now();
  const token = await client.auth.exchange();
  const requested = client.auth.requestedScopes;
  const granted = grantedScopes(token);
  const scopes = granted?.scopes ?? requested;
  const endpoints = INTERFACE_ENDPOINTS.map((e) => ({
    ...e,
    allowed: scopes.includes(e.scope),
  }));
  return {
    baseUrl: shownUrl(config.baseUrl),
    authUrl: shownUrl(config.authUrl),
    appUrl: shownUrl(config.appUrl),
    region: config.region,
    serviceRegion: options.serviceRegion,
    clientId: config.clientId,
    modelId: config.modelId,
    profile: config.profile,
    requestedScopes: requested,
    refusedScopes: client.auth.droppedScopes,
    grantedScopes: granted?.scopes,
    scopesFrom: granted?.from ?? "requested (the service did not say)",
    tokenType: token.token_type,
    expiresInSeconds: token.expires_in,
    expiresAt: new Date(issued + token.expires_in * 1000).toISOString(),
    endpoints,
  };
}

function grantedScopes(token: TokenResponse): { scopes: string[]; from: WhoAmI["scopesFrom"] } | undefined {
  if (typeof token.scope === "string") return { scopes: split(token.scope), from: "token response" };
  const claims = jwtClaims(token.access_token);
  const claim = claims?.scope ?? claims?.scp;
  if (typeof claim === "string") return { scopes: split(claim), from: "token claims" };
  if (Array.isArray(claim)) return { scopes: claim.map(String), from: "token claims" };
  return undefined;
}

function split(scope: string): string[] {
  return scope.split(/\s+/).filter((s) => s !== "");
}

/** The payload of a JWT access token, unverified (only to describe it); undefined for an opaque token. */
function jwtClaims(token: string): Record<string, unknown> | undefined {
  const parts = token.split(".");
  if (parts.length !== 3 || parts[1] === undefined) return undefined;
  try {
    const payload: unknown = JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8"));
    return typeof payload === "object" && payload !== null ? (payload as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** How long `doctor` waits for the portal to answer at all. */
const PROBE_TIMEOUT_MS = 10_000;

export type CheckStatus = "ok" | "warning" | "failed" | "skipped";

export interface DoctorCheck {
  readonly check: string;
  readonly status: CheckStatus;
  readonly detail: string;
  /** What to do about a warning or failure. */
  readonly remedy: string | undefined;
}

export interface DoctorReport {
  readonly ok: boolean;
  readonly checks: readonly DoctorCheck[];
  /** Who the token says you are, when a token could be had. */
  readonly whoami: WhoAmI | undefined;
}

/**
 * Each address answers, the token can be had, health answers and its region matches
 * the configured one, the token's scopes cover the workflow. Never throws for a failing
 * check: each becomes a line with its remedy.
 */
export async function doctor(client: MdpsClient, transportOptions: TransportOptions = {}): Promise<DoctorReport> {
  const { config } = client;
  const checks: DoctorCheck[] = [];
  const add = (check: string, status: CheckStatus, detail: string, remedy?: string) =>
    checks.push({ check, status, detail: withShownUrls(detail), remedy });

  // The portal only has to answer (any HTTP status): it is for people, not for mdps.
  // The probe streams (any status will do), so its bound is the transfer limit, not the JSON one.
  const probe = new Transport({
    ...transportOptions,
    retry: { maxRetries: 0 },
    timeoutMs: PROBE_TIMEOUT_MS,
    transferTimeoutMs: PROBE_TIMEOUT_MS,
  });
  try {
    const status = await probeStatus(probe, config.appUrl);
    add("portal answers", "ok", `${config.appUrl} answered ${status}`);
  } catch (error) {
    add(
      "portal answers",
      "warning",
      `${config.appUrl}: ${messageOf(error)}`,
      "Check MDPS_APP_URL (the portal is only for people; mdps does not need it to work).",
    );
  } finally {
    await probe.close();
  }

  let me: WhoAmI | undefined;
  let serviceRegion: string | undefined;
  try {
    me = await whoami(client);
    add(
      "token",
      "ok",
      `${config.authUrl} issued a ${me.tokenType} token for ${me.clientId}, valid ${me.expiresInSeconds} s`,
    );
  } catch (error) {
    add("token", "failed", `${config.authUrl}: ${summaryOf(error)}`, remedyOf(error, "auth"));
  }

  try {
    if (me === undefined) throw new SkipCheck();
    const health = await client.health.get();
    serviceRegion = health.region;
    add(
      "model API answers",
      health.status === "healthy" ? "ok" : "warning",
      `${config.baseUrl} health: ${health.status}${health.capabilities ? `; extensions: ${health.capabilities.join(", ") || "none"}` : "; declares no extensions (the interface alone)"}`,
      health.status === "healthy"
        ? undefined
        : "The service reports it is not healthy: try again later, or ask its operators.",
    );
  } catch (error) {
    if (error instanceof SkipCheck) {
      add("model API answers", "skipped", `${config.baseUrl}: needs a token first`);
    } else if (error instanceof PermissionDeniedError) {
      add(
        "model API answers",
        "warning",
        `${config.baseUrl} answered 403 to the health check${error.detail ? `: "${error.detail}"` : ""}`,
        "mdps assumes health needs shared.health.read (the interface does not say): if the application lacks it, " +
          "add it (and to MDPS_SCOPES if set) to let mdps check the region.",
      );
    } else {
      add("model API answers", "failed", `${config.baseUrl}: ${summaryOf(error)}`, remedyOf(error, "api"));
    }
  }

  if (config.region === undefined) {
    add(
      "region",
      serviceRegion ? "ok" : "skipped",
      serviceRegion ? `the service is in ${serviceRegion}` : "no region configured and none reported",
    );
  } else if (serviceRegion === undefined) {
    add(
      "region",
      "warning",
      `configured ${config.region}; the service does not report its region`,
      "Check by hand that MDPS_BASE_URL and MDPS_AUTH_URL are of that region.",
    );
  } else if (serviceRegion === config.region) {
    add("region", "ok", `configured ${config.region}, the service reports ${serviceRegion}`);
  } else {
    add(
      "region",
      "failed",
      `configured ${config.region}, but the service reports ${serviceRegion}`,
      "The portal, authentication API and model API must be of one region: fix MDPS_BASE_URL / MDPS_AUTH_URL or MDPS_REGION.",
    );
  }

  if (me !== undefined) {
    const scopes = me.grantedScopes ?? me.requestedScopes;
    const missing = WORKFLOW_SCOPES.filter((s) => !scopes.includes(s));
    if (missing.length > 0) {
      add(
        "scopes",
        "failed",
        `the token lacks ${missing.join(", ")} (${me.scopesFrom}), which mdps assumes upload, send, read and download need (the interface does not say)`,
        "Assign them to the application in the portal and list them in MDPS_SCOPES (or the scopes option).",
      );
    } else {
      add("scopes", "ok", `${scopes.length} scope(s) (${me.scopesFrom}) cover upload, send, read and download`);
    }
  }
  me = me && { ...me, serviceRegion };
  return { ok: checks.every((c) => c.status !== "failed"), checks, whoami: me };
}

async function probeStatus(transport: Transport, url: string): Promise<number> {
  try {
    const res = await transport.stream({ method: "GET", url, headers: { accept: "text/html,*/*" }, idempotent: true });
    res.body.resume();
    return res.status;
  } catch (error) {
    if (error instanceof APIError && error.status !== undefined) return error.status;
    throw error;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A transient failure says nothing about the settings: the same run later may pass. */
export const TRANSIENT_REMEDY =
  "Transient: the service is busy, restarting or behind a gateway that lost it (the call was retried where safe); " +
  "nothing points at the settings. Run it again in a moment.";

/** Thrown to skip a check whose precondition failed (the model API needs a token). */
class SkipCheck extends Error {}

/** One line: the status and what the service said, or the first sentence of the message. */
export function summaryOf(error: unknown): string {
  if (error instanceof APIError) {
    const said = error.detail ?? error.title;
    return `answered ${error.status}${error instanceof OAuthError ? ` ${error.code}` : ""}${said ? `: "${said}"` : ""}`;
  }
  const message = messageOf(error);
  const end = message.search(/\.\s/);
  return end > 0 ? message.slice(0, end + 1) : message;
}

function remedyOf(error: unknown, where: "auth" | "api"): string {
  if (error instanceof OAuthError) return oauthAdvice(error.code, error.detail);
  if (isTransientAnswer(error)) return TRANSIENT_REMEDY;
  if (error instanceof APIError) {
    return where === "auth"
      ? "Check MDPS_AUTH_URL (the token endpoint is {auth_url}/api/authorization/exchange)."
      : "Check MDPS_BASE_URL and that the token is of this service (a token of another region is refused).";
  }
  if (error instanceof MdpsError && error.code === "connection_error") {
    return `Check that ${where === "auth" ? "MDPS_AUTH_URL" : "MDPS_BASE_URL"} is right and reachable; behind a proxy set HTTPS_PROXY (and NO_PROXY for local hosts).`;
  }
  return "Run with MDPS_DEBUG=1 for the details.";
}
