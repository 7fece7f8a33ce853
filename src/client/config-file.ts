/**
 * Writes a profile into the config file that ./config.ts reads. The file holds a client
 * secret, so it is never world-readable, not even for a moment: the new content goes to a
 * temp file created 0600 in the same directory, then replaces the file by rename (atomic
 * on one file system: a reader sees the old file or the new one, never half of either).
 */
import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { mkdir, open, readFile, realpath, rename, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { ConfigError } from "./errors.js";

/** A profile as the file stores it (snake_case keys, as in ./config.ts). */
export interface ProfileEntry {
  readonly base_url: string;
  readonly auth_url?: string | undefined;
  readonly app_url?: string | undefined;
  readonly region?: string | undefined;
  readonly client_id: string;
  readonly client_secret: string;
  readonly model_id: string;
  readonly scopes?: readonly string[] | undefined;
  /**
   * The service's words for record types and access tiers (`{ csv: "Csv" }`): absent keeps
   * what the file has, `{}` removes it (mdps's own words).
   */
  readonly record_types?: Readonly<Record<string, string>> | undefined;
  readonly access_tiers?: Readonly<Record<string, string>> | undefined;
  /** What `mdps configure` learned of the service (./vendor/service-settings.ts): written when learned, else kept. */
  readonly form_parts?: Readonly<Record<string, string>> | undefined;
  readonly param_spelling?: string | undefined;
  readonly job_types?: Readonly<Record<string, string>> | undefined;
  readonly learned_from?: Readonly<Record<string, string>> | undefined;
}

export interface WriteProfileOptions {
  /** The config file (see `defaultConfigPath` in ./config.ts). */
  readonly path: string;
  readonly name: string;
  readonly profile: ProfileEntry;
  /** Make it the file's `default_profile`. */
  readonly makeDefault?: boolean | undefined;
}

export interface ConfigFileContent {
  readonly default_profile?: string | undefined;
  readonly profiles: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly [key: string]: unknown;
}

const MANAGED_KEYS = [
  "base_url",
  "auth_url",
  "app_url",
  "region",
  "client_id",
  "client_secret",
  "model_id",
  "scopes",
] as const;

/** Written when given, removed when given empty, else kept as the file has them. */
const WORD_KEYS = [
  "record_types",
  "access_tiers",
  "form_parts",
  "param_spelling",
  "job_types",
  "learned_from",
] as const;

/**
 * The file's content, or undefined when it does not exist. A file that is not a JSON
 * object with `profiles` is an error: rewriting it would lose what is in it.
 */
export async function readConfigFile(path: string): Promise<ConfigFileContent | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new ConfigError(`Cannot read the mdps config file ${path}: ${(error as Error).message}.`, [], {
      cause: error,
    });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // The parser's message may quote the file, secret included: never pass it on.
    parsed = undefined;
  }
  const profiles = (parsed as { profiles?: unknown } | undefined)?.profiles;
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed) || !isRecordOfRecords(profiles)) {
    throw new ConfigError(
      `The mdps config file ${path} is not an mdps config (a JSON object with "profiles"), so it was left as it is. ` +
        `Fix or move it, or point MDPS_CONFIG at another file.`,
    );
  }
  return parsed as ConfigFileContent;
}

/**
 * Adds or replaces profile `name`, keeping the file's other profiles and keys, and any
 * keys of that profile mdps configure does not manage (value maps and other settings).
 * Creates the directory (0700) when missing; the file is written 0600.
 *
 * @example
 * await writeProfile({ path: defaultConfigPath(), name: "uk1", profile, makeDefault: true });
 */
export async function writeProfile(options: WriteProfileOptions): Promise<void> {
  const { name, profile } = options;
  if (name.trim() === "") throw new ConfigError("A profile name cannot be empty.");
  const path = await targetOf(options.path);
  const existing = await readConfigFile(path);
  // Managed keys are written anew; a word map is replaced only when given (removed when empty).
  const replaced: readonly string[] = [...MANAGED_KEYS, ...WORD_KEYS.filter((key) => profile[key] !== undefined)];
  const entry: Record<string, unknown> = Object.fromEntries(
    Object.entries(existing?.profiles[name] ?? {}).filter(([key]) => !replaced.includes(key)),
  );
  for (const key of [...MANAGED_KEYS, ...WORD_KEYS]) {
    const value = profile[key];
    if (value !== undefined && value !== "" && !isEmpty(value)) entry[key] = value;
  }
  const next: ConfigFileContent = {
    ...existing,
    ...(options.makeDefault ? { default_profile: name } : {}),
    profiles: { ...existing?.profiles, [name]: entry },
  };
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writePrivateFile(path, `${JSON.stringify(next, null, 2)}\n`);
}

/**
 * Replaces `path` with `text` through a temp file that is created 0600 (O_EXCL, so never
 * someone else's file) and renamed over it. The old file's mode does not carry over.
 */
export async function writePrivateFile(path: string, text: string): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  try {
    try {
      // The umask can only take bits away; chmod makes the mode exactly 0600 regardless.
      await handle.chmod(0o600);
      await handle.writeFile(text, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

/** A symlinked config file (dotfiles) is written where it points, so the link stays a link. */
async function targetOf(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return path;
    throw error;
  }
}

/** An empty list or map: nothing to write (the key is left out). */
function isEmpty(value: unknown): boolean {
  return typeof value === "object" && value !== null && Object.keys(value).length === 0;
}

function isRecordOfRecords(value: unknown): value is Record<string, Record<string, unknown>> {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((v) => typeof v === "object" && v !== null && !Array.isArray(v))
  );
}
