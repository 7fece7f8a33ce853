/**
 * Configuration resolves once, per field: explicit argument, then environment
 * (MDPS_*), then a named profile of the config file, then the default.
 *
 * Config file: `$MDPS_CONFIG`, else `$XDG_CONFIG_HOME/mdps/config.json`, else
 * `~/.config/mdps/config.json`. JSON:
 *
 *     { "default_profile": "uk1",
 *       "profiles": { "uk1": { "base_url": "https://...", "client_id": "...",
 *                              "client_secret": "...", "model_id": "...",
 *                              "region": "uk1", "scopes": ["ml.preprocessing.execute"] } } }
 *
 * The profile is `profile` (argument), else `$MDPS_PROFILE`, else the file's
 * `default_profile`, else `default`. Keep the file `chmod 600`: it holds a secret.
 */
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { uuid } from "../core/contract/common.js";
import { SCOPES, isScope } from "../core/contract/scopes.js";
import { ConfigError } from "./errors.js";
import { Secret } from "./secret.js";
import {
  mergeServiceSettings,
  serviceSettingsKeys,
  serviceSettingsOfEnv,
  serviceSettingsOfProfile,
  type ServiceSettings,
} from "./vendor/service-settings.js";

export interface ConfigOptions {
  readonly baseUrl?: string | undefined;
  /** Token endpoint origin; defaults to `baseUrl`. */
  readonly authUrl?: string | undefined;
  /** Portal origin; defaults to `baseUrl`. Only shown to users. */
  readonly appUrl?: string | undefined;
  /** Expected region id; when set, the service's health must report the same. */
  readonly region?: string | undefined;
  readonly clientId?: string | undefined;
  readonly clientSecret?: string | Secret | undefined;
  readonly modelId?: string | undefined;
  /** Scopes to request; empty (the default): the Session's scopes (`SESSION_SCOPES` in ./auth.ts). */
  readonly scopes?: string | readonly string[] | undefined;
  readonly profile?: string | undefined;
  /** Path of the config file (overrides $MDPS_CONFIG); `false` reads no file. */
  readonly configFile?: string | false | undefined;
  /** Environment to read (default `process.env`); tests pass their own. */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
}

export type ConfigSource = "argument" | "environment" | "config file" | "default";

export interface ClientConfig {
  readonly baseUrl: string;
  readonly authUrl: string;
  readonly appUrl: string;
  readonly region: string | undefined;
  readonly clientId: string;
  readonly clientSecret: Secret;
  readonly modelId: string;
  readonly scopes: readonly string[];
  readonly profile: string | undefined;
  /** What the profile says of the service (capabilities, value maps, wire format); {} without one. */
  readonly service: ServiceSettings;
  /** Where each field came from, for `mdps config`-style diagnostics. */
  readonly sources: Readonly<Record<string, ConfigSource>>;
}

const FIELDS = {
  baseUrl: { env: "MDPS_BASE_URL", key: "base_url", label: "model API URL" },
  authUrl: { env: "MDPS_AUTH_URL", key: "auth_url", label: "authentication URL" },
  appUrl: { env: "MDPS_APP_URL", key: "app_url", label: "portal URL" },
  region: { env: "MDPS_REGION", key: "region", label: "region" },
  clientId: { env: "MDPS_CLIENT_ID", key: "client_id", label: "client id" },
  clientSecret: { env: "MDPS_CLIENT_SECRET", key: "client_secret", label: "client secret" },
  modelId: { env: "MDPS_MODEL_ID", key: "model_id", label: "model id" },
  scopes: { env: "MDPS_SCOPES", key: "scopes", label: "scopes" },
} as const;
type Field = keyof typeof FIELDS;
const REQUIRED: readonly Field[] = ["baseUrl", "clientId", "clientSecret", "modelId"];

const profileSchema = z.looseObject({
  base_url: z.string().optional(),
  auth_url: z.string().optional(),
  app_url: z.string().optional(),
  region: z.string().optional(),
  client_id: z.string().optional(),
  client_secret: z.string().optional(),
  model_id: z.string().optional(),
  scopes: z.union([z.string(), z.array(z.string())]).optional(),
  ...serviceSettingsKeys,
});
const configFileSchema = z.looseObject({
  default_profile: z.string().optional(),
  profiles: z.record(z.string(), profileSchema),
});

export function defaultConfigPath(env: Readonly<Record<string, string | undefined>> = process.env): string {
  if (env.MDPS_CONFIG) return env.MDPS_CONFIG;
  const base = env.XDG_CONFIG_HOME || join(homedir(), ".config");
  return join(base, "mdps", "config.json");
}

/** Resolves and checks the configuration; throws ConfigError listing every problem. */
export function resolveConfig(options: ConfigOptions = {}): ClientConfig {
  const env = options.env ?? process.env;
  const profile = loadProfile(options, env);
  const sources: Record<string, ConfigSource> = {};
  const pick = (field: Field): string | readonly string[] | undefined => {
    const arg = options[field];
    if (arg !== undefined && arg !== "") {
      sources[field] = "argument";
      return arg instanceof Secret ? arg.reveal() : arg;
    }
    const fromEnv = env[FIELDS[field].env];
    if (fromEnv !== undefined && fromEnv !== "") {
      sources[field] = "environment";
      return fromEnv;
    }
    const fromFile = profile.values?.[FIELDS[field].key];
    if (fromFile !== undefined && fromFile !== "") {
      sources[field] = "config file";
      return fromFile;
    }
    return undefined;
  };

  const raw = Object.fromEntries((Object.keys(FIELDS) as Field[]).map((f) => [f, pick(f)])) as Record<
    Field,
    string | readonly string[] | undefined
  >;
  const missing = REQUIRED.filter((f) => raw[f] === undefined).map(
    (f) => `${FIELDS[f].label} (${FIELDS[f].env}, option ${f}, or profile key ${FIELDS[f].key})`,
  );
  const problems: string[] = [];
  const url = (field: "baseUrl" | "authUrl" | "appUrl"): string | undefined => {
    const value = raw[field];
    if (typeof value !== "string") return undefined;
    try {
      const parsed = new URL(value);
      if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error("not http");
      return value.replace(/\/+$/, "");
    } catch {
      problems.push(`${FIELDS[field].label} ${JSON.stringify(value)} is not an http(s) URL`);
      return undefined;
    }
  };
  const baseUrl = url("baseUrl");
  const authUrl = url("authUrl") ?? baseUrl;
  const appUrl = url("appUrl") ?? baseUrl;
  if (raw.authUrl === undefined && baseUrl !== undefined) sources.authUrl = "default";
  if (raw.appUrl === undefined && baseUrl !== undefined) sources.appUrl = "default";
  const modelId = typeof raw.modelId === "string" ? raw.modelId.trim().toLowerCase() : undefined;
  if (modelId !== undefined && !uuid.safeParse(modelId).success) {
    problems.push(`model id ${JSON.stringify(raw.modelId)} is not a UUID (copy it from the model's settings)`);
  }
  const wordsOfEnv = serviceSettingsOfEnv(env, problems);
  const scopes = parseScopes(raw.scopes);
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length > 0) {
    problems.push(`unknown scope(s) ${unknown.join(", ")}; known: ${SCOPES.join(", ")}`);
  }

  if (missing.length > 0 || problems.length > 0) {
    const lines = [];
    if (missing.length > 0) lines.push(`Missing: ${missing.join("; ")}.`);
    if (problems.length > 0) lines.push(`Invalid: ${problems.join("; ")}.`);
    lines.push(
      `Pass them to Session.connect(), set the environment variables, or add them to profile ` +
        `"${profile.name ?? "default"}" in ${profile.path}. For a local service without credentials use Session.local().`,
    );
    throw new ConfigError(`mdps configuration is incomplete. ${lines.join(" ")}`, missing);
  }

  return {
    baseUrl: baseUrl!,
    authUrl: authUrl!,
    appUrl: appUrl!,
    region: typeof raw.region === "string" ? raw.region : undefined,
    clientId: raw.clientId as string,
    clientSecret: new Secret(raw.clientSecret as string),
    modelId: modelId!,
    scopes,
    profile: profile.values ? profile.name : undefined,
    // The environment's word maps win over the profile's, as every other setting does.
    service: mergeServiceSettings(wordsOfEnv, serviceSettingsOfProfile(profile.values)),
    sources,
  };
}

function parseScopes(value: string | readonly string[] | undefined): string[] {
  if (value === undefined) return [];
  const list = typeof value === "string" ? value.split(/[\s,]+/) : value;
  return [...new Set(list.map((s) => s.trim()).filter((s) => s.length > 0))];
}

interface LoadedProfile {
  readonly path: string;
  readonly name: string | undefined;
  readonly values: z.infer<typeof profileSchema> | undefined;
}

function loadProfile(options: ConfigOptions, env: Readonly<Record<string, string | undefined>>): LoadedProfile {
  if (options.configFile === false) return { path: "(no config file)", name: undefined, values: undefined };
  const path = options.configFile ?? defaultConfigPath(env);
  const explicit = options.profile ?? (env.MDPS_PROFILE || undefined);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    // Only the default location may be absent; a file named by option or MDPS_CONFIG must exist.
    const named = options.configFile !== undefined || Boolean(env.MDPS_CONFIG);
    if ((error as NodeJS.ErrnoException).code === "ENOENT" && explicit === undefined && !named) {
      return { path, name: undefined, values: undefined };
    }
    throw new ConfigError(
      `Cannot read the mdps config file ${path}: ${(error as Error).message}. ` +
        `Create it, point MDPS_CONFIG at it, or pass the settings as options.`,
      [],
      { cause: error },
    );
  }
  let file: z.infer<typeof configFileSchema>;
  try {
    file = configFileSchema.parse(JSON.parse(text));
  } catch (error) {
    throw new ConfigError(
      // The parser's message may quote the file's text, secret included: never pass it on.
      `The mdps config file ${path} is not valid ${error instanceof SyntaxError ? "JSON" : "mdps config"}: ` +
        `it must look like {"profiles": {"default": {"base_url": "...", "client_id": "..."}}}.`,
      [],
    );
  }
  const name = explicit ?? file.default_profile ?? "default";
  const values = file.profiles[name];
  if (values === undefined && (explicit !== undefined || file.default_profile !== undefined)) {
    throw new ConfigError(
      `Profile "${name}" is not in ${path}; it has: ${Object.keys(file.profiles).join(", ") || "(none)"}.`,
      [],
    );
  }
  return { path, name, values };
}
