/**
 * The one way tests start the reference service. Three modes share one data-dir, app and
 * cleanup bookkeeping (`ServiceStarter`):
 *
 * - `inject()`: the service's Fastify app without a socket; requests go through
 *   `app.inject` (light-my-request). For route-level tests where a real socket is not
 *   the point.
 * - `start()`: `startService` in this process, on 127.0.0.1 port 0.
 * - `spawn()`: a child process: `mdps serve` of the built CLI as users run it, or, with
 *   `lease`, the built service with a short job lease (`mdps serve` has no lease flag)
 *   through serve-driver.ts. Its stdout and stderr are captured; it is ready once it
 *   printed its listening line.
 *
 * Each mode's service is a `Target`: a base URL and the fetch that reaches it, which the
 * client helpers (service-harness.ts) take wherever they take a URL.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
import { SCOPES } from "../../src/core/contract/index.js";
import { buildApp, openAdmin, startService, type RunningService, type ServiceOptions } from "../../src/server/index.js";
import { ensureBuilt, MAIN, ROOT } from "./built.js";

export const ALL_SCOPES: string[] = [...SCOPES];

const DRIVER = fileURLToPath(new URL("./serve-driver.ts", import.meta.url));

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** A service as the client helpers reach it: its base URL and the fetch to use there. */
export interface Target {
  url: string;
  fetch: FetchLike;
}

/** A URL is reached with the global fetch. */
export function targetOf(target: string | Target): Target {
  return typeof target === "string" ? { url: target, fetch: (input, init) => fetch(input, init) } : target;
}

export interface AppCredentials {
  modelId: string;
  clientId: string;
  clientSecret: string;
}

/** A model (or `modelId`) with one application holding `scopes`, registered straight in the data dir. */
export function registerApp(dataDir: string, scopes: string[] = ALL_SCOPES, modelId?: string): AppCredentials {
  const admin = openAdmin(dataDir);
  try {
    const model = modelId ?? admin.createModel("test-model").model_id;
    const { client_id, client_secret } = admin.addApp({ modelId: model, name: "test-app", scopes });
    return { modelId: model, clientId: client_id, clientSecret: client_secret };
  } finally {
    admin.close();
  }
}

export type StartedService = RunningService & Target;

export interface InjectedService extends Target {
  app: FastifyInstance;
  dataDir: string;
  close(): Promise<void>;
}

/** Where an injected service "is": a reserved name, so a global fetch there fails at once. */
export const INJECT_URL = "http://inject.invalid";

/** A fetch answered by `app.inject`: the request and the reply are real `Request`/`Response`s. */
export function injectFetch(app: FastifyInstance): FetchLike {
  return async (input, init) => {
    const request = new Request(input, init);
    const payload = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const reply = await app.inject({
      method: request.method as "GET",
      url: request.url,
      headers: Object.fromEntries(request.headers),
      ...(payload ? { payload } : {}),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(reply.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) headers.append(name, String(v));
    }
    const bodiless = request.method === "HEAD" || [204, 205, 304].includes(reply.statusCode);
    return new Response(bodiless ? null : reply.rawPayload, { status: reply.statusCode, headers });
  };
}

export interface ChildOptions {
  /** `mdps serve` arguments, after `--port 0`. Ignored with `lease`. */
  args?: string[];
  /** Instead of `mdps serve`: the built service on `dataDir` with this job lease, via serve-driver.ts. */
  lease?: { dataDir: string; leaseMs: number; workers?: number; log?: boolean };
  /** The built CLI whose service runs; default this checkout's dist (built first). */
  main?: string;
  /** The Node binary; default this process's. */
  node?: string;
  /** Node flags before `main`, e.g. `["--import", "tsx"]` to run src/cli/main.ts itself. */
  nodeArgs?: string[];
  /** A wrapper command before node, e.g. `["faketime", "-f", "-30s"]`. */
  prefix?: string[];
  /** Added to this process's environment (where MDPS_DATA_DIR is emptied). */
  env?: Record<string, string>;
  /** The ready line(s) on stdout, from its start; group 1 the URL. Default: the listening line. */
  ready?: RegExp;
  timeoutMs?: number;
  /** Its own process group: a start that times out is killed with its wrapper. */
  detached?: boolean;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServiceChild extends Target {
  child: ChildProcessWithoutNullStreams;
  /** The node process's pid: the driver prints it, as a wrapper (faketime) may fork. */
  pid: number;
  port: number;
  /** The ready pattern's match (the portal line is group 2 of the portal's). */
  match: RegExpExecArray;
  stdout: () => string;
  /** Everything it wrote to stderr (its request log with --log). */
  stderr: () => string;
  exited: Promise<Exit>;
  /** Sends `signal` unless it has exited; resolves once it has. */
  kill: (signal: NodeJS.Signals) => Promise<void>;
}

const LISTENING = /^listening on (http:\/\/\S+)(?: pid (\d+))?\n/;

/** A child service whose output is captured from its first byte; `ready` resolves once it listens. */
function launch(options: ChildOptions): {
  stderr: () => string;
  stop: () => Promise<void>;
  ready: Promise<ServiceChild>;
} {
  const main = options.main ?? (ensureBuilt(), MAIN);
  const { lease } = options;
  const nodeArgs = lease
    ? ["--import", "tsx", DRIVER, main, lease.dataDir, String(lease.leaseMs), String(lease.workers ?? 1)]
    : [...(options.nodeArgs ?? []), main, "serve", "--port", "0", ...(options.args ?? [])];
  if (lease?.log) nodeArgs.push("log");
  const [command, ...args] = [...(options.prefix ?? []), options.node ?? process.execPath, ...nodeArgs];
  const child = spawn(command!, args, {
    cwd: ROOT,
    env: { ...process.env, MDPS_DATA_DIR: "", ...options.env },
    detached: options.detached ?? false,
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<Exit>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const signal = (to: number, sig: NodeJS.Signals) => {
    try {
      if (!gone()) process.kill(to, sig);
    } catch {
      // gone meanwhile
    }
  };
  // The node process's pid once it printed it (a wrapper such as faketime may fork).
  let pid = child.pid!;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const ready = new Promise<ServiceChild>((resolve, reject) => {
    const timer = setTimeout(() => {
      // Not ready, so nobody else would stop it: it goes now (with its wrapper when detached).
      signal(options.detached ? -child.pid! : child.pid!, "SIGKILL");
      reject(new Error(`the service printed no ready line in ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    const check = () => {
      const match = (options.ready ?? LISTENING).exec(stdout);
      if (!match) return;
      clearTimeout(timer);
      child.stdout.off("data", check);
      const url = match[1]!;
      if (!options.ready && match[2]) pid = Number(match[2]);
      resolve({
        child,
        pid,
        url,
        port: Number(new URL(url).port),
        fetch: (input, init) => fetch(input, init),
        match,
        stdout: () => stdout,
        stderr: () => stderr,
        exited,
        kill: async (sig) => {
          signal(pid, sig);
          await exited;
        },
      });
    };
    child.stdout.on("data", check);
    void exited.then(({ code, signal: sig }) => {
      clearTimeout(timer);
      reject(new Error(`the service exited (${code ?? sig}) before it was ready\n${stdout}\n${stderr}`));
    });
  });
  // Stops it whatever state it is in: thawed if frozen, SIGTERM, SIGKILL after 10 s.
  const stop = async () => {
    if (gone()) return;
    signal(pid, "SIGCONT");
    signal(pid, "SIGTERM");
    const late = setTimeout(() => signal(options.detached ? -child.pid! : child.pid!, "SIGKILL"), 10_000);
    await exited;
    clearTimeout(late);
  };
  return { stderr: () => stderr, stop, ready };
}

/** Starts a child service (see `ChildOptions`); nothing tracks it: stop it with `kill`. */
export function spawnChild(options: ChildOptions = {}): Promise<ServiceChild> {
  return launch(options).ready;
}

/**
 * Starts services in the three modes and registers apps; everything it made (services,
 * children, temp dirs) is stopped and removed by `cleanup()`.
 */
export class ServiceStarter {
  private readonly dirs: string[] = [];
  private readonly closers: Array<() => Promise<void>> = [];
  private readonly launched: Array<{ stderr: () => string; stop: () => Promise<void> }> = [];

  constructor(private readonly dirPrefix = "mdps-test-") {}

  async tempDir(prefix = this.dirPrefix): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), prefix));
    this.dirs.push(dir);
    return dir;
  }

  private async options(options: Partial<ServiceOptions>): Promise<ServiceOptions> {
    return { dataDir: options.dataDir ?? (await this.tempDir()), jobWorkers: 1, ...options };
  }

  /** In this process, listening on 127.0.0.1 (a fresh data dir and one job worker unless given). */
  async start(options: Partial<ServiceOptions> = {}): Promise<StartedService> {
    const service = await startService(await this.options(options));
    this.closers.push(() => service.close());
    return { ...service, fetch: (input, init) => fetch(input, init) };
  }

  /** The app without a socket, reached through `app.inject` (same defaults as `start`). */
  async inject(options: Partial<ServiceOptions> = {}): Promise<InjectedService> {
    const serviceOptions = await this.options(options);
    const app = await buildApp(serviceOptions);
    const close = () => app.close();
    this.closers.push(close);
    return { app, url: INJECT_URL, dataDir: serviceOptions.dataDir, fetch: injectFetch(app), close };
  }

  /** A child process (see `ChildOptions`), tracked from its spawn: a failed start's log is kept too. */
  async spawn(options: ChildOptions = {}): Promise<ServiceChild> {
    const launched = launch(options);
    this.launched.push(launched);
    return launched.ready;
  }

  /** The stderr of every child spawned, stopped and failed ones included (for secret scans). */
  get logs(): string[] {
    return this.launched.map((l) => l.stderr());
  }

  /** A model (or `modelId`) with one application holding `scopes`. */
  app(dataDir: string, scopes: string[] = ALL_SCOPES, modelId?: string): AppCredentials {
    return registerApp(dataDir, scopes, modelId);
  }

  async cleanup(): Promise<void> {
    await Promise.all([...this.closers.map((c) => c()), ...this.launched.map((l) => l.stop())]);
    await Promise.all(this.dirs.map((d) => rm(d, { recursive: true, force: true })));
  }
}
