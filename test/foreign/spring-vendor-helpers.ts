/**
 * The Spring-style vendor (test/foreign-service/spring-vendor.ts) as an analyst meets it: only
 * its addresses and credentials, `mdps configure` run as a child process (secret on stdin),
 * and what configure learns by itself written to a config file of the test's own.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import type { ForeignService } from "../foreign-service/index.js";
import { MDPS_BIN, requireBuild } from "../repl/cli-process.js";

export interface Run {
  readonly code: number | null;
  readonly out: string;
}

/** A temp dir for config files, removed after the file's tests; the build is required. */
export function useConfigDir(): { readonly path: () => string } {
  let dir = "";
  beforeAll(() => {
    requireBuild();
    dir = mkdtempSync(join(tmpdir(), "mdps-spring-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return { path: () => dir };
}

/**
 * `mdps ...args` with only a config file (none of the caller's MDPS_* settings), stdin piped in,
 * and `extra` variables on top.
 */
export function mdps(
  dir: string,
  args: readonly string[],
  config: string,
  stdin = "",
  extra: Record<string, string> = {},
): Promise<Run> {
  const inherited = Object.entries(process.env).filter(([name]) => !name.startsWith("MDPS_"));
  const env: NodeJS.ProcessEnv = {
    ...Object.fromEntries(inherited),
    MDPS_HOME: join(dir, "home"),
    MDPS_CONFIG: config,
    XDG_CONFIG_HOME: join(dir, "xdg"),
    HTTP_PROXY: "",
    http_proxy: "",
    CI: "1",
    ...extra,
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MDPS_BIN, ...args], { cwd: dir, env, stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out }));
    child.stdin.end(stdin);
  });
}

/** What an analyst is given: the addresses and the application's credentials, nothing about the wire. */
export function configureArgs(service: ForeignService, profile = "spring"): string[] {
  return [
    "configure",
    "--profile",
    profile,
    "--base-url",
    service.baseUrl,
    "--auth-url",
    service.authUrl,
    "--model-id",
    service.modelId,
    "--client-id",
    service.clientId,
    "--client-secret-stdin",
  ];
}

export function profileIn(config: string, profile = "spring"): Record<string, unknown> {
  const file = JSON.parse(readFileSync(config, "utf8")) as { profiles: Record<string, Record<string, unknown>> };
  return file.profiles[profile] ?? {};
}

/** Configures `service` into `config` and returns the profile written; fails the test with configure's output. */
export async function configured(
  dir: string,
  service: ForeignService,
  config: string,
): Promise<Record<string, unknown>> {
  const run = await mdps(dir, configureArgs(service), config, `${service.clientSecret}\n`);
  if (run.code !== 0) throw new Error(`mdps configure exited ${run.code}:\n${run.out}`);
  return profileIn(config);
}

/** The profile a Spring-style vendor needs, whichever way it is learned. */
export const SPRING_PROFILE = {
  form_parts: {
    file: "file",
    name: "name",
    description: "description",
    recordType: "recordType",
    accessTier: "accessTier",
    tags: "tags",
  },
  param_spelling: "camelCase",
  record_types: { csv: "CSV" },
  access_tiers: { hot: "HOT", cool: "COOL", archive: "ARCHIVE" },
  job_types: { preprocessing: "PREPROCESSING" },
} as const;
