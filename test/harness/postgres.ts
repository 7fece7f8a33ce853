/**
 * A throwaway PostgreSQL cluster for tests: Debian's server binaries
 * (/usr/lib/postgresql/<version>/bin, not on PATH) run on a free port of 127.0.0.1 with
 * their data in a temp dir, started once per test file, with a fresh database per test.
 *
 * PostgreSQL refuses to run as root, and tests here run as root: then the cluster runs as
 * `nobody` (setpriv), in a temp dir it owns. Connections over TCP authenticate with a
 * password (scram-sha-256), so tests pass a URL holding one and the redaction of errors is
 * exercised; the harness itself talks to the cluster as `postgres` over its private socket.
 */
import { execFile, execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import type { RequiredTool } from "../required-tool.js";

const PG_ROOT = "/usr/lib/postgresql";
const NOBODY = 65534;

/** The bin dir of the newest installed PostgreSQL with initdb, or undefined. */
export function postgresBinDir(): string | undefined {
  if (!existsSync(PG_ROOT)) return undefined;
  const versions = readdirSync(PG_ROOT)
    .filter((v) => existsSync(join(PG_ROOT, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(PG_ROOT, versions[0], "bin");
}

/**
 * The server the PostgreSQL suites need: with CI set a missing one fails the run
 * (describeWithTool), since .ci/run installs `postgresql`; elsewhere the suites skip.
 */
export const postgresTool: RequiredTool = {
  name: "PostgreSQL",
  missing:
    postgresBinDir() === undefined
      ? `no PostgreSQL server binaries (${PG_ROOT}/<version>/bin/initdb): apt-get install postgresql`
      : null,
};

export interface PostgresCluster {
  /** postgres://mdps:<password>@127.0.0.1:<port>/postgres: the test role, with its password. */
  url: string;
  /** The test role's password, for checking that it never shows. */
  password: string;
  port: number;
  /** A new empty database owned by the test role; its URL. */
  freshDatabase(): Promise<string>;
  /** Runs SQL as the superuser (over the socket): to end other sessions, read pg_stat_activity. */
  adminQuery(sql: string, params?: unknown[]): Promise<pg.QueryResult>;
  /**
   * Restarts the server on the same port and data: `fast` (default) ends every session
   * cleanly; `immediate` aborts without a shutdown checkpoint, as a crash does (recovery
   * replays the WAL at the start).
   */
  restart(mode?: "fast" | "immediate"): Promise<void>;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/** Runs a server binary as `nobody` when we are root (PostgreSQL refuses root), else as ourselves. */
/** As runAs, without blocking this process's event loop (requests of the test go on meanwhile). */
async function runAsAsync(bin: string, args: string[], cwd: string): Promise<void> {
  const asRoot = process.getuid?.() === 0;
  const [file, argv] = asRoot
    ? ["setpriv", [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", bin, ...args]]
    : [bin, args];
  await promisify(execFile)(file, argv, { cwd, encoding: "utf8", timeout: 120_000 });
}

function runAs(bin: string, args: string[], cwd: string): string {
  const asRoot = process.getuid?.() === 0;
  const [file, argv] = asRoot
    ? ["setpriv", [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", bin, ...args]]
    : [bin, args];
  return execFileSync(file, argv, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 120_000 });
}

export async function startPostgres(): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  if (bin === undefined) throw new Error(`no PostgreSQL server under ${PG_ROOT}/*/bin`);
  const asRoot = process.getuid?.() === 0;
  // As root the server runs as nobody, who must pass through every folder above its data
  // dir: a TMPDIR under /root would refuse it, /tmp never does.
  const dir = mkdtempSync(join(asRoot ? "/tmp" : tmpdir(), "mdps-pg-"));
  const data = join(dir, "data");
  const socketDir = join(dir, "socket");
  mkdirSync(socketDir);
  if (asRoot) {
    chownSync(dir, NOBODY, NOBODY);
    chownSync(socketDir, NOBODY, NOBODY);
  }
  const port = await freePort();
  const options = [
    `-p ${port}`,
    `-k ${socketDir}`,
    "-c listen_addresses=127.0.0.1",
    "-c fsync=on",
    "-c max_connections=100",
  ].join(" ");
  try {
    // --no-sync only spares initdb's own fsync of the template files; the server below runs with fsync=on.
    runAs(
      join(bin, "initdb"),
      [
        "-D",
        data,
        "-U",
        "postgres",
        "-E",
        "UTF8",
        "--no-locale",
        "--auth-local=trust",
        "--auth-host=scram-sha-256",
        "--no-sync",
      ],
      dir,
    );
    runAs(
      join(bin, "pg_ctl"),
      ["-D", data, "-l", join(dir, "server.log"), "-w", "-t", "60", "-o", options, "start"],
      dir,
    );
  } catch (err) {
    const log = existsSync(join(dir, "server.log")) ? readFileSync(join(dir, "server.log"), "utf8") : "";
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`PostgreSQL did not start: ${(err as Error).message}\n${log}`);
  }

  const connectAdmin = async () => {
    const client = new pg.Client({ host: socketDir, port, user: "postgres", database: "postgres" });
    await client.connect();
    return client;
  };
  let admin = await connectAdmin();
  // Characters a URL must percent-encode, so the store's decoding and redaction of both forms are exercised.
  const password = `pw:${Math.random().toString(36).slice(2)}/@x`;
  await admin.query(`CREATE ROLE mdps LOGIN CREATEDB PASSWORD '${password}'`);
  const urlOf = (database: string) => `postgres://mdps:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
  let databases = 0;

  return {
    url: urlOf("postgres"),
    password,
    port,
    async freshDatabase() {
      const name = `test_${++databases}`;
      await admin.query(`CREATE DATABASE ${name} OWNER mdps TEMPLATE template0`);
      return urlOf(name);
    },
    adminQuery: (sql, params) => admin.query(sql, params),
    async restart(mode = "fast") {
      await admin.end().catch(() => undefined);
      // -m fast: every session is ended at once, as a server restarted by its operator does;
      // -m immediate: as a crash (no checkpoint; the WAL is replayed at the start).
      // -l: the server's output to its log, not to this pipe (which would stay open for its life).
      const log = join(dir, "server.log");
      await runAsAsync(
        join(bin, "pg_ctl"),
        ["-D", data, "-l", log, "-m", mode, "-w", "-t", "60", "-o", options, "restart"],
        dir,
      );
      admin = await connectAdmin();
    },
    async stop() {
      await admin.end().catch(() => undefined);
      try {
        runAs(join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"], dir);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
