/** Starts services as child processes (serve-process.ts) on a shared data dir. */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

const SCRIPT = fileURLToPath(new URL("./serve-process.ts", import.meta.url));

export interface ServiceProcess {
  url: string;
  pid: number;
  child: ChildProcess;
  /** Resolves when the process has exited. */
  exited: Promise<void>;
  kill(signal: NodeJS.Signals): Promise<void>;
}

export interface SpawnOptions {
  leaseMs?: number;
  workers?: number;
  /** The Node binary; default this process's. */
  node?: string;
  /** The SQLite driver (MDPS_SQLITE_DRIVER); default the child's own choice. */
  sqliteDriver?: string;
}

export async function spawnService(dataDir: string, options: SpawnOptions = {}): Promise<ServiceProcess> {
  const env = { ...process.env };
  if (options.sqliteDriver !== undefined) env["MDPS_SQLITE_DRIVER"] = options.sqliteDriver;
  const child = spawn(
    options.node ?? process.execPath,
    ["--import", "tsx", SCRIPT, dataDir, String(options.leaseMs ?? 10_000), String(options.workers ?? 1)],
    { stdio: ["ignore", "pipe", "pipe"], env },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`service did not start within 60 s: ${stderr}`)), 60_000);
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const match = /listening on (\S+)/.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    void exited.then(() => reject(new Error(`service exited before listening: ${stderr}`)));
  });
  return {
    url,
    pid: child.pid ?? -1,
    child,
    exited,
    async kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
