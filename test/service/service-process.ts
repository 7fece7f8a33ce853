/** Services as child processes on a shared data dir: `spawn({ lease })` of test/harness/service-starter.ts. */
import { spawnChild, type ServiceChild } from "../harness/service-starter.js";

export type ServiceProcess = ServiceChild;

export interface SpawnOptions {
  leaseMs?: number;
  workers?: number;
  /** The Node binary; default this process's. */
  node?: string;
  /** The SQLite driver (MDPS_SQLITE_DRIVER); default the child's own choice. */
  sqliteDriver?: string;
}

export function spawnService(dataDir: string, options: SpawnOptions = {}): Promise<ServiceProcess> {
  return spawnChild({
    lease: { dataDir, leaseMs: options.leaseMs ?? 10_000, workers: options.workers ?? 1 },
    ...(options.node ? { node: options.node } : {}),
    ...(options.sqliteDriver !== undefined ? { env: { MDPS_SQLITE_DRIVER: options.sqliteDriver } } : {}),
  });
}
