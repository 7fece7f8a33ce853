/**
 * The embedded reference service behind `Session.local()`: started in this process
 * on 127.0.0.1 (a free port), over a persistent data dir, with its own model and an
 * application holding every scope. The application's credentials are kept in a
 * 0600 file in the data dir, so later runs reuse the same model and blobs.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { z } from "zod";
import { SCOPES } from "../core/contract/scopes.js";
import { uuid } from "../core/contract/common.js";
import { Secret } from "../client/secret.js";
import type { RunningService, ServiceOptions } from "../server/index.js";
import { DEFAULT_AUTO_INPUT_RETENTION_MS, pruneAutoInputs } from "./auto-inputs.js";

// The service (Fastify, SQLite, worker threads) loads only when a local session starts,
// so `import "mdps"` stays light for Session.connect users, the CLI and the REPL.
export type ServiceModule = typeof import("../server/index.js");

export const CREDENTIALS_FILE = "local-session.json";

export interface LocalServiceOptions {
  /** Data dir; default `$MDPS_HOME/local`, else `~/.mdps/local`. */
  readonly dataDir?: string | undefined;
  /** Passed to the service: region, tokenTtlSeconds, jobWorkers, maxBlobBytes, logger. */
  readonly service?: Omit<ServiceOptions, "dataDir" | "host" | "port"> | undefined;
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /**
   * At start, remove inputs that `preprocess(df)` uploaded on its own (tag
   * `mdps:auto-input`) last updated longer ago than this; default 24 hours,
   * `Infinity` keeps them (see ./auto-inputs.ts).
   */
  readonly autoInputRetentionMs?: number | undefined;
}

export interface LocalCredentials {
  readonly modelId: string;
  readonly clientId: string;
  readonly clientSecret: Secret;
}

export interface LocalService {
  readonly service: RunningService;
  readonly dataDir: string;
  readonly credentials: LocalCredentials;
  /** The extensions the service declares in health (docs/contract.md#extensions). */
  readonly capabilities: readonly string[];
  /** Replaces lost credentials (e.g. the database was reset) with a new application. */
  renewCredentials(): LocalCredentials;
  /** A one-time portal login link that lives in this process only (service/portal/notebook-links.ts). */
  notebookLink(): string;
}

const credentialsSchema = z.object({ model_id: uuid, client_id: z.string().min(1), client_secret: z.string().min(1) });

export function defaultLocalDataDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return env.MDPS_HOME ? join(env.MDPS_HOME, "local") : join(homedir(), ".mdps", "local");
}

export async function startLocalService(options: LocalServiceOptions = {}): Promise<LocalService> {
  const dataDir = resolve(options.dataDir ?? defaultLocalDataDir(options.env ?? process.env));
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const mod: ServiceModule = await import("../server/index.js");
  const credentials = readCredentials(dataDir) ?? createCredentials(mod, dataDir);
  pruneAutoInputs(mod, dataDir, options.autoInputRetentionMs ?? DEFAULT_AUTO_INPUT_RETENTION_MS);
  const service = await startOrAttach(mod, dataDir, options);
  return {
    service,
    dataDir,
    credentials,
    capabilities: mod.CAPABILITIES,
    renewCredentials: () => {
      rmSync(join(dataDir, CREDENTIALS_FILE), { force: true });
      return createCredentials(mod, dataDir);
    },
    notebookLink: () => mod.createNotebookLink(service.url),
  };
}

/**
 * Starts this session's own service on the data dir. Any number of processes (other
 * notebooks, the REPL, `mdps serve`) may serve the same dir at once: they share its
 * store, and each job runs in one of them under a lease (docs/service.md), so closing
 * or killing another process never breaks this session.
 */
async function startOrAttach(
  mod: ServiceModule,
  dataDir: string,
  options: LocalServiceOptions,
): Promise<RunningService> {
  return mod.startService({ ...options.service, dataDir, host: "127.0.0.1", port: 0 });
}

function readCredentials(dataDir: string): LocalCredentials | undefined {
  let text: string;
  try {
    text = readFileSync(join(dataDir, CREDENTIALS_FILE), "utf8");
  } catch {
    return undefined;
  }
  const parsed = credentialsSchema.safeParse(safeJson(text));
  if (!parsed.success) return undefined;
  return {
    modelId: parsed.data.model_id,
    clientId: parsed.data.client_id,
    clientSecret: new Secret(parsed.data.client_secret),
  };
}

/**
 * Creates the model and application, then publishes the credentials with an atomic
 * rename. Two processes racing on a fresh dir both succeed; the later rename wins and
 * the earlier process's application simply goes unused.
 */
function createCredentials(mod: ServiceModule, dataDir: string): LocalCredentials {
  const admin = mod.openAdmin(dataDir);
  try {
    const existing = admin.listModels().find((m) => m.name === "local");
    const modelId = existing?.model_id ?? admin.createModel("local").model_id;
    const app = admin.addApp({ modelId, name: `session ${new Date().toISOString()}`, scopes: [...SCOPES] });
    const path = join(dataDir, CREDENTIALS_FILE);
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(
      tmp,
      JSON.stringify({ model_id: modelId, client_id: app.client_id, client_secret: app.client_secret }, null, 2),
      { mode: 0o600 },
    );
    renameSync(tmp, path);
    return { modelId, clientId: app.client_id, clientSecret: new Secret(app.client_secret) };
  } finally {
    admin.close();
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
