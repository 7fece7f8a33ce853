import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";

/**
 * One server per data dir. Two servers on one dir would both run its queued jobs and
 * each would sweep the other's in-flight temp files as orphans at start-up, so the
 * second start is refused. The lock file also tells a client where the running server
 * listens (Session.local() reuses it instead of failing).
 */
export interface DataDirLockInfo {
  pid: number;
  hostname: string;
  started_at: string;
  region: string;
  url: string | null;
}

export class DataDirInUseError extends Error {
  override readonly name = "DataDirInUseError";
  constructor(
    readonly dataDir: string,
    readonly holder: DataDirLockInfo,
  ) {
    super(
      `The data dir ${dataDir} is in use by another mdps server (pid ${holder.pid}` +
        `${holder.url ? `, listening on ${holder.url}` : ""}). ` +
        "Stop that server, connect to it, or start this one with another data dir.",
    );
  }
}

const LOCK_FILE = "server.lock";

export function lockPath(dataDir: string): string {
  return join(dataDir, LOCK_FILE);
}

/** The live holder of the data dir's lock, or null when none (a stale lock counts as none). */
export function readDataDirLock(dataDir: string): DataDirLockInfo | null {
  let info: DataDirLockInfo;
  try {
    info = JSON.parse(readFileSync(lockPath(dataDir), "utf8")) as DataDirLockInfo;
  } catch {
    return null;
  }
  return isAlive(info) ? info : null;
}

export interface DataDirLock {
  /** Records the URL once the server listens. */
  setUrl(url: string): void;
  release(): void;
}

export function acquireDataDirLock(dataDir: string, region: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const path = lockPath(dataDir);
  const info: DataDirLockInfo = {
    pid: process.pid,
    hostname: hostname(),
    started_at: new Date().toISOString(),
    region,
    url: null,
  };
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(path, "wx", 0o644);
      writeSync(fd, JSON.stringify(info));
      closeSync(fd);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 0) throw err;
      const holder = readDataDirLock(dataDir);
      if (holder) throw new DataDirInUseError(dataDir, holder);
      // Stale: its process is gone (killed, crashed). Take it over once.
      unlinkSync(path);
    }
  }
  let released = false;
  return {
    setUrl(url) {
      info.url = url;
      // Write-then-rename so a reader never sees a half-written file.
      writeFileSync(`${path}.${process.pid}`, JSON.stringify(info));
      renameSync(`${path}.${process.pid}`, path);
    },
    release() {
      if (released) return;
      released = true;
      try {
        unlinkSync(path);
      } catch {
        // Already gone: nothing to release.
      }
    },
  };
}

function isAlive(info: DataDirLockInfo): boolean {
  if (info.hostname !== hostname()) return true; // another machine's process: cannot tell, assume alive
  if (info.pid === process.pid) return true;
  try {
    process.kill(info.pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
